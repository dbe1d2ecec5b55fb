//! The library behind the page: the IndexedDB store, the searchable corpus in memory, the
//! embedding model (loaded on first use), and the ingestion queue. Components talk to it
//! through [`Engine`] and see its progress through the signals in [`crate::state::Ui`].

use std::cell::{Cell, RefCell};

use async_lock::{Mutex, MutexGuard};
use std::collections::VecDeque;
use std::rc::Rc;

use fonte_core::corpus::{Corpus, DocumentMeta};
use fonte_core::embed::Embedder;
use fonte_core::lexical::highlight;
use fonte_core::pdf::{document_id, RejectReason, Report};
use fonte_core::retrieve::{Fusion, Mode};
use fonte_core::store::{
    begin_switch, finish_switch, open_library, Opened, PendingFile, Store, StoredDocument,
};
use gloo::timers::future::TimeoutFuture;
use leptos::prelude::*;

use crate::i18n::*;
use crate::models::Model;
use crate::platform::assets::fetch_bytes;
use crate::platform::embed::{choose_compute, requested_compute, Compute, OrtWebEncoder};
use crate::platform::idb::{DbEvent, IdbStore};
use crate::platform::reader::ReaderWorker;
use crate::state::{Loaded, Progress, ResultRow, Row, Status, Ui, Why};
use crate::{AppError, AppResult};
use leptos_i18n::I18nContext;

/// Where the model and onnxruntime-web are served from (same origin as the app).
pub const ORT_DIR: &str = "ort/";
/// The library's IndexedDB database.
pub const DB_NAME: &str = "fonte";
/// Chunks per embedding call between yields to the page. onnxruntime-web's WASM backend
/// computes on this thread, so every call is a task the page cannot interrupt: one chunk
/// (~70 ms) per call keeps those tasks short; the yield costs a few percent of throughput.
const SLICE: usize = 1;

/// A file waiting in the queue.
struct Job {
    key: u64,
    name: String,
    bytes: Vec<u8>,
    id: String,
    password: Option<String>,
    // Whether the file is already kept as pending in the store (written once per file).
    pending_saved: bool,
    // Whether it was already opened once to see if it can be read at all.
    triaged: bool,
    // A stored document being re-embedded for a model switch: its PDF is already stored
    // (no pending copy), and it replaces its old copy only once re-embedded.
    replaces: bool,
}

/// The library and everything that works on it.
pub struct Engine {
    ui: Ui,
    i18n: I18nContext<Locale>,
    store: IdbStore,
    // The embedding model the library uses (replaced by `switch_model`).
    model: RefCell<Model>,
    models: Vec<Model>,
    corpus: RefCell<Corpus>,
    // Behind an async lock held across each inference: a search while a file is embedding
    // waits for the current chunk instead of finding the model gone (and loading another).
    embedder: Mutex<Option<Embedder<OrtWebEncoder>>>,
    // Files refused for want of a password, by row: kept in memory (never stored) so the user
    // can type the password and try again without picking the file again.
    locked: RefCell<Vec<(u64, String, Vec<u8>)>>,
    // The reader worker (parsing and chunking, with the model's tokenizer), so a file can be
    // read and rejected without waiting for the model, and no file can crash the page.
    reader: RefCell<Option<Rc<ReaderWorker>>>,
    queue: RefCell<VecDeque<Job>>,
    running: Cell<bool>,
    cancel: Cell<bool>,
    next_key: Cell<u64>,
}

/// `rel` resolved against the page's URL (onnxruntime-web needs an absolute base).
pub fn absolute(rel: &str) -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .and_then(|base| web_sys::Url::new_with_base(rel, &base).ok())
        .map_or_else(|| rel.to_string(), |u| u.href())
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Lets the browser paint and handle input before the next piece of work.
async fn yield_now() {
    TimeoutFuture::new(0).await;
}

impl Engine {
    /// Opens the library: the saved index if current, else rebuilt from the stored chunks and
    /// vectors. No embedding happens here.
    pub async fn open(ui: Ui, i18n: I18nContext<Locale>) -> AppResult<Rc<Self>> {
        let started = now_ms();
        let models = crate::models::installed().await?;
        let on_db = move |event| {
            let text = match event {
                DbEvent::Blocked => t_string!(i18n, db_blocked).to_string(),
                DbEvent::ClosedForUpgrade => t_string!(i18n, db_closed_for_upgrade).to_string(),
            };
            ui.notice.set(Some(text));
        };
        let store = IdbStore::open_with(DB_NAME, Rc::new(on_db)).await?;
        let stored = store.meta().await?;
        let model = crate::models::for_library(
            &models,
            stored.as_ref().map(|m| m.target().model_id.as_str()),
        )
        .clone();
        let info = model.info();
        let mut stale = Vec::new();
        let mut damaged = Vec::new();
        let (corpus, loaded) = match open_library(&store, &info).await? {
            Opened::Ready {
                corpus,
                restored,
                stale: left,
                damaged: broken,
            } => {
                stale = left;
                damaged = broken;
                let loaded = Loaded::Ready {
                    restored,
                    documents: corpus.documents.len(),
                    chunks: corpus.chunks.len(),
                    ms: now_ms() - started,
                };
                (*corpus, loaded)
            }
            Opened::Mismatch { stored } => (
                Corpus::empty(info.clone()),
                Loaded::Mismatch {
                    stored: format!(
                        "{} (dim {}), chunks of {} tokens",
                        stored.info.model_id,
                        stored.info.dim,
                        stored.info.chunk_params.target_tokens
                    ),
                },
            ),
        };
        let engine = Rc::new(Self {
            ui,
            i18n,
            store,
            model: RefCell::new(model),
            models,
            corpus: RefCell::new(corpus),
            embedder: Mutex::new(None),
            locked: RefCell::new(Vec::new()),
            reader: RefCell::new(None),
            queue: RefCell::new(VecDeque::new()),
            running: Cell::new(false),
            cancel: Cell::new(false),
            next_key: Cell::new(1),
        });
        let mut rows: Vec<Row> = engine
            .corpus
            .borrow()
            .documents
            .iter()
            .map(|d| Row {
                key: engine.key(),
                id: Some(d.id.clone()),
                name: d.name.clone(),
                size: None,
                pages: Some(d.pages),
                chunks: Some(engine.chunk_count(&d.id)),
                status: Status::from_report(&d.report),
            })
            .collect();
        // Listed so they can be deleted; the rest of the library works.
        rows.extend(damaged.into_iter().map(|d| Row {
            key: engine.key(),
            id: Some(d.id),
            name: d.name,
            size: None,
            pages: Some(d.pages),
            chunks: None,
            status: Status::Damaged,
        }));
        ui.rows.set(rows);
        ui.models.set(engine.models.clone());
        ui.model.set(engine.model().manifest.id);
        ui.loaded.set(loaded);
        ui.generation.update(|g| *g += 1);
        let pending = engine.store.pending().await?;
        ui.pending
            .set(pending.into_iter().map(|p| (p.id, p.name)).collect());
        // A model switch that a closed tab interrupted goes on: the documents not moved yet
        // are still stored with their PDFs, and are re-embedded now.
        if !stale.is_empty() {
            engine.requeue_stale(stale).await?;
        }
        Ok(engine)
    }

    /// The model the library uses.
    pub fn model(&self) -> Model {
        self.model.borrow().clone()
    }

    /// The installed models (the default first).
    pub fn models(&self) -> &[Model] {
        &self.models
    }

    /// Makes the library use the model in `dir`: every stored PDF is embedded again with it
    /// (with progress, as when added), never mixing the two models' vectors.
    pub async fn switch_model(self: &Rc<Self>, dir: &str) -> AppResult<()> {
        let Some(model) = self.models.iter().find(|m| m.dir == dir).cloned() else {
            return Err(fonte_core::Error::Manifest(format!("no installed model in {dir}")).into());
        };
        if self.running.get() {
            self.ui
                .notice
                .set(Some(t_string!(self.i18n, switch_while_busy).to_string()));
            return Ok(());
        }
        *self.model.borrow_mut() = model.clone();
        *self.reader.borrow_mut() = None;
        *self.embedder.lock().await = None;
        self.ui.placement.set(None);
        self.ui.model.set(model.manifest.id.clone());
        self.reindex().await
    }

    fn key(&self) -> u64 {
        let k = self.next_key.get();
        self.next_key.set(k + 1);
        k
    }

    fn chunk_count(&self, id: &str) -> usize {
        let corpus = self.corpus.borrow();
        let Some(n) = corpus.document_number(id) else {
            return 0;
        };
        corpus.chunks.iter().filter(|c| c.doc == n).count()
    }

    fn set_status(&self, key: u64, f: impl FnOnce(&mut Row)) {
        self.ui.rows.update(|rows| {
            if let Some(r) = rows.iter_mut().find(|r| r.key == key) {
                f(r);
            }
        });
    }

    /// The reader worker for the library's model (its tokenizer counts the chunks' tokens).
    async fn reader(&self) -> AppResult<Rc<ReaderWorker>> {
        if let Some(r) = self.reader.borrow().as_ref() {
            return Ok(r.clone());
        }
        let model = self.model();
        let json = fetch_bytes(&format!("{}tokenizer.json", model.dir)).await?;
        model.manifest.verify("tokenizer.json", &json)?;
        let reader = Rc::new(ReaderWorker::new(json, model.manifest.max_tokens));
        *self.reader.borrow_mut() = Some(reader.clone());
        Ok(reader)
    }

    /// The embedding model, loaded on first use; the guard holds it for one inference.
    async fn embedder(&self) -> AppResult<MutexGuard<'_, Option<Embedder<OrtWebEncoder>>>> {
        let mut slot = self.embedder.lock().await;
        if slot.is_some() {
            return Ok(slot);
        }
        let active = self.model();
        let model = fetch_bytes(&format!("{}model.onnx", active.dir)).await?;
        let tokenizer = fetch_bytes(&format!("{}tokenizer.json", active.dir)).await?;
        let compute = choose_compute(requested_compute()).await;
        let encoder =
            OrtWebEncoder::load(&absolute(ORT_DIR), &active.manifest, &model, compute).await?;
        let placement = encoder.placement().clone();
        // On the CPU, batch 1: padding to the longest text of a batch costs more than batching
        // saves (measured for issue 4: batch 1 was fastest in every CPU runtime). A GPU is
        // built for wide batches (not measured here: no GPU on the development machines).
        let batch = match placement.compute {
            Compute::WebGpu => 16,
            Compute::Wasm => 1,
        };
        let embedder = Embedder::new(active.manifest, &tokenizer, encoder)?.with_batch_size(batch);
        self.ui.placement.set(Some(placement));
        *slot = Some(embedder);
        Ok(slot)
    }

    /// Queues files (name, bytes) for ingestion and starts the queue if idle. Duplicates of a
    /// stored or queued document are reported and skipped.
    pub fn add_files(self: &Rc<Self>, files: Vec<(String, f64, Vec<u8>)>) {
        if matches!(self.ui.loaded.get_untracked(), Loaded::Mismatch { .. }) {
            // Never mix vectors of two models: the stored library must be re-indexed first.
            self.ui
                .notice
                .set(Some(t_string!(self.i18n, reindex_first).to_string()));
            return;
        }
        for (name, size, bytes) in files {
            let key = self.key();
            let id = document_id(&bytes);
            let known = self
                .corpus
                .borrow()
                .document_number(&id)
                .map(|n| self.corpus.borrow().documents[n as usize].name.clone());
            let queued = self
                .queue
                .borrow()
                .iter()
                .find(|j| j.id == id)
                .map(|j| j.name.clone());
            let status = match known.or(queued) {
                Some(of) => Status::Duplicate(of),
                None => Status::Queued,
            };
            let duplicate = matches!(status, Status::Duplicate(_));
            self.ui.rows.update(|rows| {
                rows.push(Row {
                    key,
                    id: Some(id.clone()),
                    name: name.clone(),
                    size: Some(size),
                    pages: None,
                    chunks: None,
                    status,
                })
            });
            if !duplicate {
                self.ui.progress.update(|p| p.total_bytes += size);
                self.queue.borrow_mut().push_back(Job {
                    key,
                    name,
                    bytes,
                    id,
                    password: None,
                    pending_saved: false,
                    triaged: false,
                    replaces: false,
                });
            }
        }
        self.ui.pending.update(|p| {
            let queued: Vec<String> = self.queue.borrow().iter().map(|j| j.id.clone()).collect();
            p.retain(|(id, _)| !queued.contains(id));
        });
        if !self.running.get() {
            let me = self.clone();
            leptos::task::spawn_local(async move { me.run_queue().await });
        }
    }

    async fn run_queue(self: Rc<Self>) {
        self.running.set(true);
        self.cancel.set(false);
        self.ui.busy.set(true);
        self.ui.progress.update(|p| {
            if p.started_ms == 0.0 {
                p.started_ms = now_ms();
            }
        });
        loop {
            // Every queued file not yet kept as pending is written now, before the slow work,
            // so a closed tab can offer them all again (files may join the queue meanwhile).
            let unsaved: Vec<PendingFile> = self
                .queue
                .borrow_mut()
                .iter_mut()
                .filter(|j| !j.pending_saved && !j.replaces)
                .map(|j| {
                    j.pending_saved = true;
                    PendingFile {
                        id: j.id.clone(),
                        name: j.name.clone(),
                        bytes: j.bytes.clone(),
                    }
                })
                .collect();
            for p in &unsaved {
                match self.store.put_pending(p).await {
                    Ok(()) => {}
                    // Its bytes alone do not fit, so the document will not either: say so now
                    // rather than after minutes of embedding.
                    Err(fonte_core::Error::StoreFull(_)) => {
                        let job = {
                            let mut queue = self.queue.borrow_mut();
                            let at = queue.iter().position(|j| j.id == p.id);
                            at.and_then(|at| queue.remove(at))
                        };
                        if let Some(job) = job {
                            self.set_status(job.key, |r| r.status = Status::StorageFull);
                            self.ui
                                .progress
                                .update(|pr| pr.done_bytes += job.bytes.len() as f64);
                        }
                        self.ui
                            .notice
                            .set(Some(t_string!(self.i18n, storage_full).to_string()));
                    }
                    // Not fatal: the file is still ingested, only not offered again if the tab
                    // closes first.
                    Err(e) => self.ui.notice.set(Some(e.to_string())),
                }
            }
            self.reject_unreadable().await;
            let job = self.queue.borrow_mut().pop_front();
            let Some(job) = job else { break };
            if self.cancel.get() {
                self.set_status(job.key, |r| r.status = Status::Cancelled);
                let _ = self.store.delete_pending(&job.id).await;
                continue;
            }
            let size = job.bytes.len() as f64;
            match self.ingest(&job).await {
                Ok(()) => {}
                Err(AppError::StorageFull(_)) => {
                    self.set_status(job.key, |r| r.status = Status::StorageFull);
                    self.ui
                        .notice
                        .set(Some(t_string!(self.i18n, storage_full).to_string()));
                    // The file was reported as not stored: no orphan copy of it stays behind
                    // to be offered again (deleting frees space; it can fail only if the
                    // database is gone, and then there is nothing to keep clean).
                    if !job.replaces {
                        let _ = self.store.delete_pending(&job.id).await;
                    }
                }
                Err(e) => self.set_status(job.key, |r| r.status = Status::Failed(e.to_string())),
            }
            self.ui.progress.update(|p| {
                p.done_bytes += size;
                p.current = 0.0;
            });
        }
        // One save of the index for the whole batch (it is rebuilt from the documents if the
        // tab closes first).
        let saved = self.corpus.borrow().to_bytes();
        if let Ok(bytes) = saved {
            let _ = self.store.set_index(&bytes).await;
        }
        // A model switch ends once every document is moved; until then the library opens with
        // the moved ones and re-embeds the rest.
        if let Err(e) = finish_switch(&self.store).await {
            self.ui.notice.set(Some(e.to_string()));
        }
        self.ui.progress.set(Progress::default());
        self.ui.busy.set(false);
        self.running.set(false);
        self.refresh_storage().await;
    }

    /// Opens every queued file not opened yet and reports those that cannot be read at all
    /// (not a PDF, a password needed) now, not after the files before them are embedded.
    async fn reject_unreadable(&self) {
        let untried: Vec<(u64, String, Vec<u8>, Option<String>)> = self
            .queue
            .borrow_mut()
            .iter_mut()
            .filter(|j| !j.triaged)
            .map(|j| {
                j.triaged = true;
                (j.key, j.name.clone(), j.bytes.clone(), j.password.clone())
            })
            .collect();
        if untried.is_empty() {
            return;
        }
        let reader = match self.reader().await {
            Ok(r) => r,
            // Each file then fails with this reason when its turn comes.
            Err(_) => return,
        };
        for (key, name, bytes, password) in untried {
            // Opening reads the cross-reference table and trailer only (14 ms natively for the
            // 6.5 MB fullrefman.pdf), in the reader worker like all parsing.
            let report = match reader.open(&name, &bytes, password).await {
                Ok(Ok(None)) => continue,
                Ok(Ok(Some(report))) => report,
                Ok(Err(why)) => Report::Rejected {
                    reason: RejectReason::ReaderStopped { why },
                },
                Err(e) => {
                    self.set_status(key, |r| r.status = Status::Failed(e.to_string()));
                    continue;
                }
            };
            let job = {
                let mut queue = self.queue.borrow_mut();
                let at = queue.iter().position(|j| j.key == key);
                at.and_then(|at| queue.remove(at))
            };
            let Some(job) = job else { continue };
            if let Err(e) = self.reject(&job, &report).await {
                self.set_status(job.key, |r| r.status = Status::Failed(e.to_string()));
            }
            self.ui
                .progress
                .update(|p| p.done_bytes += job.bytes.len() as f64);
        }
    }

    /// Marks a file that gave no text as rejected, keeping it aside when it needs a password.
    async fn reject(&self, job: &Job, report: &Report) -> AppResult<()> {
        let status = Status::from_report(report);
        if status == Status::Rejected(Why::Password) {
            self.locked
                .borrow_mut()
                .push((job.key, job.name.clone(), job.bytes.clone()));
        }
        self.set_status(job.key, |r| r.status = status);
        self.store.delete_pending(&job.id).await?;
        Ok(())
    }

    async fn ingest(&self, job: &Job) -> AppResult<()> {
        self.set_status(job.key, |r| r.status = Status::Parsing);
        yield_now().await;
        let reader = self.reader().await?;
        let params = self.model().info().chunk_params;
        let read = reader
            .read(
                &job.name,
                &job.bytes,
                job.password.clone(),
                params,
                &mut |_, _| {},
            )
            .await?;
        let prepared = match read {
            Ok(prepared) => prepared,
            Err(why) => {
                let report = Report::Rejected {
                    reason: RejectReason::ReaderStopped { why },
                };
                self.reject(job, &report).await?;
                return Ok(());
            }
        };
        let pages = prepared.meta.pages;
        let total = prepared.chunks.len();
        if matches!(prepared.meta.report, Report::Rejected { .. }) {
            self.reject(job, &prepared.meta.report).await?;
            return Ok(());
        }
        self.set_status(job.key, |r| {
            r.pages = Some(pages);
            r.chunks = Some(total);
        });
        drop(self.embedder().await?);
        let mut vectors = Vec::with_capacity(total);
        for (i, slice) in prepared.chunks.chunks(SLICE).enumerate() {
            if self.cancel.get() {
                self.set_status(job.key, |r| r.status = Status::Cancelled);
                self.store.delete_pending(&job.id).await?;
                return Ok(());
            }
            self.set_status(job.key, |r| {
                r.status = Status::Embedding {
                    done: i * SLICE,
                    total,
                }
            });
            let texts: Vec<&str> = slice.iter().map(|c| c.text.as_str()).collect();
            let mut slot = self.embedder().await?;
            let embedder = slot.as_mut().expect("loaded by embedder()");
            let result = embedder.embed_passages(&texts).await;
            drop(slot);
            vectors.extend(result?);
            let done = vectors.len();
            self.ui.progress.update(|p| {
                p.current = job.bytes.len() as f64 * done as f64 / total as f64;
                p.chunks_embedded += slice.len();
            });
            yield_now().await;
        }
        let mut meta = prepared.meta;
        meta.build = Some(self.model().info());
        let doc = StoredDocument {
            meta,
            pdf: job.bytes.clone(),
            chunks: prepared.chunks,
            vectors,
        };
        // One transaction: when it fails (a full quota) nothing of the document was written.
        match self.store.put_document(&doc).await {
            Ok(()) => {}
            Err(fonte_core::Error::StoreFull(why)) => return Err(AppError::StorageFull(why)),
            Err(fonte_core::Error::Store(why)) => return Err(AppError::Storage(why)),
            Err(e) => return Err(e.into()),
        }
        let status = Status::from_report(&doc.meta.report);
        // Stored; the same chunks and vectors now join the in-memory index (moved, not copied).
        let StoredDocument {
            meta,
            chunks,
            vectors,
            ..
        } = doc;
        self.corpus
            .borrow_mut()
            .add_document(meta, chunks, vectors)?;
        self.set_status(job.key, |r| r.status = status);
        self.ui.generation.update(|g| *g += 1);
        Ok(())
    }

    /// Tries a file that needed a password again, with `password`.
    pub fn unlock(self: &Rc<Self>, key: u64, password: String) {
        let found = {
            let mut locked = self.locked.borrow_mut();
            locked
                .iter()
                .position(|(k, _, _)| *k == key)
                .map(|i| locked.remove(i))
        };
        let Some((key, name, bytes)) = found else {
            return;
        };
        let id = document_id(&bytes);
        self.set_status(key, |r| r.status = Status::Queued);
        self.ui
            .progress
            .update(|p| p.total_bytes += bytes.len() as f64);
        self.queue.borrow_mut().push_back(Job {
            key,
            name,
            bytes,
            id,
            password: Some(password),
            pending_saved: false,
            triaged: false,
            replaces: false,
        });
        if !self.running.get() {
            let me = self.clone();
            leptos::task::spawn_local(async move { me.run_queue().await });
        }
    }

    /// Stops after the current slice; files not started are dropped from the queue.
    pub fn cancel(&self) {
        self.cancel.set(true);
    }

    /// Deletes a stored document.
    pub async fn delete(&self, key: u64, id: &str) -> AppResult<()> {
        self.store.delete_document(id).await?;
        self.corpus.borrow_mut().remove_document(id)?;
        self.ui.rows.update(|rows| rows.retain(|r| r.key != key));
        self.ui.generation.update(|g| *g += 1);
        let saved = self.corpus.borrow().to_bytes();
        self.store.set_index(&saved?).await?;
        self.refresh_storage().await;
        Ok(())
    }

    /// Removes every document, pending file and the saved index.
    pub async fn clear(&self) -> AppResult<()> {
        self.cancel();
        self.store.clear().await?;
        *self.corpus.borrow_mut() = Corpus::empty(self.model().info());
        self.ui.rows.set(Vec::new());
        self.ui.pending.set(Vec::new());
        self.ui.loaded.set(Loaded::Ready {
            restored: false,
            documents: 0,
            chunks: 0,
            ms: 0.0,
        });
        self.ui.generation.update(|g| *g += 1);
        self.refresh_storage().await;
        Ok(())
    }

    /// Re-indexes a library built with another model or chunker: each stored document is
    /// embedded again from its stored PDF and replaces its old copy in one transaction, so a
    /// closed tab part way loses nothing (the next visit goes on with the rest). Unfinished
    /// files of an earlier visit join the queue as new files.
    pub async fn reindex(self: &Rc<Self>) -> AppResult<()> {
        begin_switch(&self.store, &self.model().info()).await?;
        let stale = self.store.documents().await?;
        *self.corpus.borrow_mut() = Corpus::empty(self.model().info());
        self.ui.rows.set(Vec::new());
        self.ui.loaded.set(Loaded::Ready {
            restored: false,
            documents: 0,
            chunks: 0,
            ms: 0.0,
        });
        self.ui.generation.update(|g| *g += 1);
        self.requeue_stale(stale).await?;
        self.resume().await
    }

    /// Queues stored documents made with another build, to be re-embedded from their PDFs.
    async fn requeue_stale(self: &Rc<Self>, stale: Vec<DocumentMeta>) -> AppResult<()> {
        for meta in stale {
            // A document whose PDF is gone cannot be re-embedded; it stays stored (and
            // unsearched) rather than being deleted.
            let Some(pdf) = self.store.pdf(&meta.id).await? else {
                continue;
            };
            let key = self.key();
            let size = pdf.len() as f64;
            self.ui.rows.update(|rows| {
                rows.push(Row {
                    key,
                    id: Some(meta.id.clone()),
                    name: meta.name.clone(),
                    size: Some(size),
                    pages: Some(meta.pages),
                    chunks: None,
                    status: Status::Queued,
                })
            });
            self.ui.progress.update(|p| p.total_bytes += size);
            self.queue.borrow_mut().push_back(Job {
                key,
                name: meta.name,
                bytes: pdf,
                id: meta.id,
                password: None,
                pending_saved: true,
                triaged: false,
                replaces: true,
            });
        }
        if !self.running.get() && !self.queue.borrow().is_empty() {
            let me = self.clone();
            leptos::task::spawn_local(async move { me.run_queue().await });
        }
        Ok(())
    }

    /// Re-queues the unfinished files of an earlier visit.
    pub async fn resume(self: &Rc<Self>) -> AppResult<()> {
        let files = self.store.pending().await?;
        self.add_files(
            files
                .into_iter()
                .map(|p| (p.name, p.bytes.len() as f64, p.bytes))
                .collect(),
        );
        Ok(())
    }

    /// Forgets the unfinished files of an earlier visit.
    pub async fn discard_pending(&self) -> AppResult<()> {
        for p in self.store.pending().await? {
            self.store.delete_pending(&p.id).await?;
        }
        self.ui.pending.set(Vec::new());
        Ok(())
    }

    /// Hybrid search; `scope` lists the document ids to search (all when empty).
    pub async fn search(&self, query: &str, scope: &[String]) -> AppResult<Vec<ResultRow>> {
        let query = query.trim();
        if query.is_empty() || self.corpus.borrow().chunks.is_empty() {
            return Ok(Vec::new());
        }
        let mut slot = self.embedder().await?;
        let embedder = slot.as_mut().expect("loaded by embedder()");
        let vector = embedder.embed_query(query).await;
        drop(slot);
        let vector = vector?;
        self.corpus.borrow_mut().fusion = Fusion::for_model(&self.model().manifest);
        let corpus = self.corpus.borrow();
        let numbers: Vec<u32> = scope
            .iter()
            .filter_map(|id| corpus.document_number(id))
            .collect();
        let scope = (!scope.is_empty()).then_some(numbers.as_slice());
        let hits = corpus.search(query, Some(&vector), Mode::Hybrid, 10, scope);
        Ok(hits
            .into_iter()
            .map(|h| {
                let c = &corpus.chunks[h.chunk as usize];
                let doc = &corpus.documents[c.doc as usize];
                ResultRow {
                    chunk: h.chunk,
                    doc_id: doc.id.clone(),
                    doc_name: doc.name.clone(),
                    page: c.chunk.page,
                    score: h.score,
                    heading: c.chunk.heading_path.join(" › "),
                    runs: highlight(&c.chunk.text, query),
                }
            })
            .collect())
    }

    /// A stored document's PDF.
    pub async fn pdf(&self, id: &str) -> AppResult<Option<Vec<u8>>> {
        Ok(self.store.pdf(id).await?)
    }

    /// The stored documents as (id, name), for scoping.
    pub fn documents(&self) -> Vec<(String, String)> {
        self.corpus
            .borrow()
            .documents
            .iter()
            .map(|d| (d.id.clone(), d.name.clone()))
            .collect()
    }

    /// Asks for persistent storage and publishes the space used.
    pub async fn refresh_storage(&self) {
        if let Some((used, quota)) = crate::platform::storage::estimate().await {
            self.ui.storage.set(Some((used, quota)));
        }
    }
}
