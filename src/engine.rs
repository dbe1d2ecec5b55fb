//! The library behind the page: the IndexedDB store, the searchable corpus in memory, the
//! embedding model (loaded on first use), and the ingestion queue. Components talk to it
//! through [`Engine`] and see its progress through the signals in [`crate::state::Ui`].

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use fonte_core::chunk::Chunker;
use fonte_core::corpus::Corpus;
use fonte_core::embed::Embedder;
use fonte_core::ingest::assemble;
use fonte_core::lexical::highlight;
use fonte_core::pdf::{document_id, Extraction, Limits, Report};
use fonte_core::retrieve::{Fusion, Mode};
use fonte_core::store::{
    open_library, LibraryMeta, Opened, PendingFile, Store, StoredDocument, STORE_FORMAT,
};
use fonte_core::tokenize::TextTokenizer;
use gloo::timers::future::TimeoutFuture;
use leptos::prelude::*;

use crate::i18n::*;
use crate::models::Model;
use crate::platform::assets::fetch_bytes;
use crate::platform::embed::{choose_compute, requested_compute, Compute, OrtWebEncoder};
use crate::platform::idb::IdbStore;
use crate::state::{Loaded, Progress, ResultRow, Row, Status, Ui, Why};
use crate::{AppError, AppResult};
use leptos_i18n::I18nContext;

/// Where the model and onnxruntime-web are served from (same origin as the app).
pub const ORT_DIR: &str = "ort/";
const DB_NAME: &str = "fonte";
/// Chunks per embedding call between yields to the page. onnxruntime-web's WASM backend
/// computes on this thread, so every call is a task the page cannot interrupt: one chunk
/// (~70 ms) per call keeps those tasks short; the yield costs a few percent of throughput.
const SLICE: usize = 1;
/// Longest stretch of parsing or chunking before yielding to the page, ms.
const SLICE_MS: f64 = 30.0;

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
    embedder: RefCell<Option<Embedder<OrtWebEncoder>>>,
    // Files refused for want of a password, by row: kept in memory (never stored) so the user
    // can type the password and try again without picking the file again.
    locked: RefCell<Vec<(u64, String, Vec<u8>)>>,
    // The tokenizer alone (for chunking), so a file can be read and rejected without waiting
    // for the model.
    tokenizer: RefCell<Option<TextTokenizer>>,
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
        let store = IdbStore::open(DB_NAME).await?;
        let stored = store.meta().await?;
        let model =
            crate::models::for_library(&models, stored.as_ref().map(|m| m.info.model_id.as_str()))
                .clone();
        let info = model.info();
        let (corpus, loaded) = match open_library(&store, &info).await? {
            Opened::Ready { corpus, restored } => {
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
            embedder: RefCell::new(None),
            locked: RefCell::new(Vec::new()),
            tokenizer: RefCell::new(None),
            queue: RefCell::new(VecDeque::new()),
            running: Cell::new(false),
            cancel: Cell::new(false),
            next_key: Cell::new(1),
        });
        let rows = engine
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
        ui.rows.set(rows);
        ui.models.set(engine.models.clone());
        ui.model.set(engine.model().manifest.id);
        ui.loaded.set(loaded);
        ui.generation.update(|g| *g += 1);
        let pending = engine.store.pending().await?;
        ui.pending
            .set(pending.into_iter().map(|p| (p.id, p.name)).collect());
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
        *self.tokenizer.borrow_mut() = None;
        *self.embedder.borrow_mut() = None;
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

    async fn tokenizer(&self) -> AppResult<TextTokenizer> {
        if let Some(t) = self.tokenizer.borrow().as_ref() {
            return Ok(t.clone());
        }
        let model = self.model();
        let json = fetch_bytes(&format!("{}tokenizer.json", model.dir)).await?;
        model.manifest.verify("tokenizer.json", &json)?;
        let t = TextTokenizer::from_bytes(&json, model.manifest.max_tokens)?;
        *self.tokenizer.borrow_mut() = Some(t.clone());
        Ok(t)
    }

    async fn embedder(&self) -> AppResult<()> {
        if self.embedder.borrow().is_some() {
            return Ok(());
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
        *self.embedder.borrow_mut() = Some(embedder);
        Ok(())
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
                .filter(|j| !j.pending_saved)
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
        self.ui.progress.set(Progress::default());
        self.ui.busy.set(false);
        self.running.set(false);
        self.refresh_storage().await;
    }

    /// Opens every queued file not opened yet and reports those that cannot be read at all
    /// (not a PDF, a password needed) now, not after the files before them are embedded.
    async fn reject_unreadable(&self) {
        let rejected: Vec<(Job, Report)> = {
            let mut queue = self.queue.borrow_mut();
            let mut found = Vec::new();
            let mut i = 0;
            while i < queue.len() {
                let job = &mut queue[i];
                if job.triaged {
                    i += 1;
                    continue;
                }
                job.triaged = true;
                let password = job.password.as_deref().map(str::as_bytes);
                // Opening reads the cross-reference table and trailer only (14 ms natively for
                // the 6.5 MB fullrefman.pdf), so `ingest` opening it again costs nothing that
                // matters next to embedding; keeping the opened file would hold a second copy
                // of every queued file's bytes.
                match Extraction::open(&job.bytes, password, Limits::default()) {
                    Ok(_) => i += 1,
                    Err(doc) => {
                        let job = queue.remove(i).expect("index checked");
                        found.push((job, doc.report));
                    }
                }
            }
            found
        };
        for (job, report) in rejected {
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
        let tokenizer = self.tokenizer().await?;
        let count = |t: &str| tokenizer.content_tokens(t);
        // Page by page, yielding whenever a slice has run for SLICE_MS, so a long PDF does not
        // freeze the page while it is read and chunked.
        let mut slice_start = now_ms();
        let password = job.password.as_deref().map(str::as_bytes);
        let doc = match Extraction::open(&job.bytes, password, Limits::default()) {
            Err(rejected) => *rejected,
            Ok(mut x) => {
                while x.step() {
                    if now_ms() - slice_start > SLICE_MS {
                        yield_now().await;
                        slice_start = now_ms();
                    }
                }
                x.finish()
            }
        };
        let mut chunks = Vec::new();
        if !matches!(doc.report, Report::Rejected { .. }) {
            let mut chunker = Chunker::new(self.model().info().chunk_params, &count);
            for page in &doc.pages {
                chunks.extend(chunker.chunk_page(page.number, &page.text, &page.furniture));
                if now_ms() - slice_start > SLICE_MS {
                    yield_now().await;
                    slice_start = now_ms();
                }
            }
        }
        let prepared = assemble(&job.name, doc, chunks);
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
        self.embedder().await?;
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
            // Take the embedder out for the await: no RefCell borrow is held across it.
            let mut embedder = self.embedder.borrow_mut().take().expect("loaded above");
            let result = embedder.embed_passages(&texts).await;
            *self.embedder.borrow_mut() = Some(embedder);
            vectors.extend(result?);
            let done = vectors.len();
            self.ui.progress.update(|p| {
                p.current = job.bytes.len() as f64 * done as f64 / total as f64;
                p.chunks_embedded += slice.len();
            });
            yield_now().await;
        }
        let doc = StoredDocument {
            meta: prepared.meta,
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

    /// Re-indexes a library built with another model or chunker: its stored PDFs are read
    /// back, the library is cleared and the files go through ingestion again.
    pub async fn reindex(self: &Rc<Self>) -> AppResult<()> {
        let mut files = Vec::new();
        for meta in self.store.documents().await? {
            if let Some(pdf) = self.store.pdf(&meta.id).await? {
                files.push((meta.name, pdf.len() as f64, pdf));
            }
        }
        for p in self.store.pending().await? {
            files.push((p.name, p.bytes.len() as f64, p.bytes));
        }
        self.clear().await?;
        self.store
            .set_meta(&LibraryMeta {
                format: STORE_FORMAT,
                info: self.model().info(),
            })
            .await?;
        self.add_files(files);
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
        self.embedder().await?;
        let mut embedder = self.embedder.borrow_mut().take().expect("loaded above");
        let vector = embedder.embed_query(query).await;
        *self.embedder.borrow_mut() = Some(embedder);
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
