//! What the page shows of the library, from what the core reports: rows of documents and
//! files, ingestion progress, how the library opened, search results. Platform-free, so the
//! mapping from the core's events to the signals is unit-tested natively (tests below drive a
//! real core `Session` on `MemStore` with the fake services); the [`super::Engine`] only
//! starts the work and hands its events here.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};

use fonte_core::ingest::queue::{Added, IngestEvent};
use fonte_core::library::Opening;
use fonte_core::search::corpus::{Corpus, DocumentMeta};
use fonte_core::DocId;
use leptos::prelude::*;

use crate::state::{Loaded, Notice, Progress, Row, Status, Ui};
use crate::AppError;

/// Milliseconds since the epoch (progress rates and opening times).
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    return js_sys::Date::now();
    #[cfg(not(target_arch = "wasm32"))]
    return std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
}

/// The rows and progress of one opened library.
pub struct Rows {
    ui: Ui,
    next_key: Cell<u64>,
    // Bytes embedded so far of each file part-embedded: the queue embeds the first pages of
    // every file before the rest of any, so several can be part-way at once.
    embedding: RefCell<HashMap<u64, f64>>,
}

impl Rows {
    /// Rows shown through `ui`.
    pub fn new(ui: Ui) -> Self {
        Self {
            ui,
            next_key: Cell::new(1),
            embedding: RefCell::default(),
        }
    }

    /// A key for a new row (unique within the page; the queue's files carry it).
    pub fn key(&self) -> u64 {
        let k = self.next_key.get();
        self.next_key.set(k + 1);
        k
    }

    /// Shows a library just opened: its searchable documents (those of `corpus`), the
    /// damaged ones (listed so they can be deleted: the rest of the library works), and how
    /// it opened. Returns the documents of another build, to be embedded again.
    /// `from_bundles` lists the documents whose text came from a bundle.
    pub fn opened(
        &self,
        opening: Opening,
        corpus: &Corpus,
        from_bundles: &BTreeMap<DocId, String>,
        started_ms: f64,
    ) -> Vec<DocumentMeta> {
        let mut rows = self.stored_rows(corpus, from_bundles, |_| true);
        let (loaded, stale) = match opening {
            Opening::Ready {
                restored,
                stale,
                damaged,
            } => {
                rows.extend(damaged.into_iter().map(|d| Row {
                    key: self.key(),
                    id: Some(d.id),
                    name: d.name,
                    size: None,
                    pages: Some(d.pages),
                    chunks: None,
                    status: Status::Damaged,
                    from_bundle: None,
                }));
                let loaded = Loaded::Ready {
                    restored,
                    documents: corpus.documents().len(),
                    chunks: corpus.chunks().len(),
                    ms: now_ms() - started_ms,
                };
                (loaded, stale)
            }
            Opening::Mismatch { stored } => (Loaded::Mismatch { stored }, Vec::new()),
        };
        self.ui.rows.set(rows);
        self.ui.loaded.set(loaded);
        self.ui.generation.update(|g| *g += 1);
        stale
    }

    /// The rows of the documents of `corpus` that `show` picks, with their passage counts
    /// and, for those in `from_bundles`, the bundle their text came from.
    fn stored_rows(
        &self,
        corpus: &Corpus,
        from_bundles: &BTreeMap<DocId, String>,
        show: impl Fn(&DocId) -> bool,
    ) -> Vec<Row> {
        let mut chunks = vec![0; corpus.documents().len()];
        for c in corpus.chunks() {
            chunks[c.doc as usize] += 1;
        }
        corpus
            .documents()
            .iter()
            .zip(chunks)
            .filter(|(d, _)| show(&d.id))
            .map(|(d, chunks)| Row {
                key: self.key(),
                chunks: Some(chunks),
                id: Some(d.id.clone()),
                name: d.name.clone(),
                size: None,
                pages: Some(d.pages),
                status: Status::from_report(&d.report),
                from_bundle: from_bundles.get(&d.id).cloned(),
            })
            .collect()
    }

    /// Shows a file waiting to be read into the page (it joins the queue when what the queue
    /// holds leaves room for it): its row, counted in the progress.
    pub fn waiting(&self, key: u64, name: String, size: f64) {
        self.ui.progress.update(|p| p.total_bytes += size);
        self.ui.rows.update(|rows| {
            rows.push(Row {
                key,
                id: None,
                name,
                size: Some(size),
                pages: None,
                chunks: None,
                status: Status::Queued,
                from_bundle: None,
            })
        });
    }

    /// Shows files the queue took: `files` (key, name, size) in the order of `added`; a
    /// duplicate is not counted in the progress. A file shown [`Self::waiting`] keeps its row.
    /// Pending files of an earlier visit that are queued again leave the pending list.
    pub fn added(&self, added: Vec<Added>, files: Vec<(u64, String, f64)>, queued: &[DocId]) {
        for (added, (key, name, size)) in added.into_iter().zip(files) {
            let status = added.duplicate_of.map_or(Status::Queued, Status::Duplicate);
            let shown = self
                .ui
                .rows
                .with_untracked(|r| r.iter().any(|r| r.key == key));
            match (shown, status == Status::Queued) {
                (false, true) => self.ui.progress.update(|p| p.total_bytes += size),
                (true, false) => self.ui.progress.update(|p| p.total_bytes -= size),
                _ => {}
            }
            let row = Row {
                key,
                id: Some(added.id),
                name,
                size: Some(size),
                pages: None,
                chunks: None,
                status,
                from_bundle: None,
            };
            self.ui
                .rows
                .update(|rows| match rows.iter_mut().find(|r| r.key == key) {
                    Some(r) => *r = row,
                    None => rows.push(row),
                });
        }
        self.ui
            .pending
            .update(|p| p.retain(|(id, _)| !queued.contains(id)));
    }

    /// Takes a row's file out of the bytes the progress waits for.
    fn uncount(&self, key: u64) {
        let size = self.ui.rows.with_untracked(|r| {
            r.iter()
                .find(|r| r.key == key)
                .and_then(|r| r.size)
                .unwrap_or(0.0)
        });
        self.ui.progress.update(|p| p.total_bytes -= size);
    }

    /// Takes back the row of a file the library refused before queueing it (a library of
    /// another model takes no file until re-indexed; the notice says so).
    pub fn refused(&self, key: u64) {
        self.uncount(key);
        self.ui.rows.update(|rows| rows.retain(|r| r.key != key));
    }

    /// Shows a waiting file that was never read: cancelled, or the browser could not read
    /// it (`failed`).
    pub fn not_read(&self, key: u64, failed: Option<AppError>) {
        self.uncount(key);
        self.set_status(key, |r| {
            r.status = failed.map_or(Status::Cancelled, Status::Failed);
        });
    }

    /// Shows the documents of an import that the page does not list yet (`corpus` and
    /// `from_bundles` are the library's after the import).
    pub fn imported(&self, corpus: &Corpus, from_bundles: &BTreeMap<DocId, String>) {
        let listed = self.ui.rows.get_untracked();
        let added = self.stored_rows(corpus, from_bundles, |id| {
            !listed.iter().any(|r| r.id.as_ref() == Some(id))
        });
        self.ui.rows.update(|rows| rows.extend(added));
        self.ui.generation.update(|g| *g += 1);
    }

    /// Shows a stored document queued to be embedded again (a model switch, a re-index).
    pub fn requeued(&self, key: u64, meta: &DocumentMeta, size: f64) {
        self.ui.rows.update(|rows| {
            rows.push(Row {
                key,
                id: Some(meta.id.clone()),
                name: meta.name.clone(),
                size: Some(size),
                pages: Some(meta.pages),
                chunks: None,
                status: Status::Queued,
                from_bundle: None,
            })
        });
        self.ui.progress.update(|p| p.total_bytes += size);
    }

    /// Shows a file queued again with its password.
    pub fn unlocked(&self, key: u64, bytes: usize) {
        self.set_status(key, |r| r.status = Status::Queued);
        self.ui.progress.update(|p| p.total_bytes += bytes as f64);
    }

    /// Removes the row of a deleted document.
    pub fn deleted(&self, key: u64) {
        self.ui.rows.update(|rows| rows.retain(|r| r.key != key));
        self.ui.generation.update(|g| *g += 1);
    }

    /// Shows an empty, searchable library (rows of re-embedded documents join it).
    pub fn empty(&self) {
        self.ui.rows.set(Vec::new());
        self.ui.loaded.set(Loaded::Ready {
            restored: false,
            documents: 0,
            chunks: 0,
            ms: 0.0,
        });
        self.ui.generation.update(|g| *g += 1);
    }

    /// What an ingestion event changes on the page.
    pub fn show<E: Into<AppError>>(&self, event: IngestEvent<E>) {
        match event {
            IngestEvent::Reading { key } => self.set_status(key, |r| r.status = Status::Parsing),
            IngestEvent::Read {
                key,
                pages,
                chunks,
                searchable,
            } => {
                self.set_status(key, |r| {
                    r.pages = Some(pages);
                    r.chunks = Some(chunks);
                    r.status = Status::Waiting { chunks, searchable };
                });
                self.ui.progress.update(|p| p.chunks_total += chunks);
                if searchable {
                    // Searches re-run: its passages can be found by their words already.
                    self.ui.generation.update(|g| *g += 1);
                }
            }
            IngestEvent::Embedding {
                key,
                done,
                total,
                embedded,
                bytes,
            } => {
                self.set_status(key, |r| {
                    let searchable = matches!(
                        r.status,
                        Status::Embedding {
                            searchable: true,
                            ..
                        } | Status::Waiting {
                            searchable: true,
                            ..
                        }
                    );
                    r.status = Status::Embedding {
                        done,
                        total,
                        searchable,
                    };
                });
                let share = bytes as f64 * done as f64 / total.max(1) as f64;
                let current = {
                    let mut part = self.embedding.borrow_mut();
                    part.insert(key, share);
                    part.values().sum::<f64>()
                };
                self.ui.progress.update(|p| {
                    p.current = current;
                    p.chunks_embedded += embedded;
                    if p.embedding_since_ms == 0.0 {
                        p.embedding_since_ms = now_ms();
                    }
                });
            }
            IngestEvent::Stored { key, report } | IngestEvent::Rejected { key, report, .. } => {
                let status = Status::from_report(&report);
                let stored = status.is_stored();
                self.set_status(key, |r| r.status = status);
                if stored {
                    // It replaced any stored copy of the same id (a bundle's): that row goes.
                    self.ui.rows.update(|rows| {
                        let id = rows
                            .iter()
                            .find(|r| r.key == key)
                            .and_then(|r| r.id.clone());
                        rows.retain(|r| r.key == key || r.id.is_none() || r.id != id);
                    });
                    self.ui.generation.update(|g| *g += 1);
                }
            }
            IngestEvent::Cancelled { key } => {
                self.set_status(key, |r| r.status = Status::Cancelled)
            }
            IngestEvent::StorageFull { key } => {
                self.set_status(key, |r| r.status = Status::StorageFull);
                self.ui.notice.set(Some(Notice::StorageFull));
            }
            IngestEvent::Failed { key, error } => {
                self.set_status(key, |r| r.status = Status::Failed(error.into()))
            }
            IngestEvent::Left { key, bytes } => {
                let current = {
                    let mut part = self.embedding.borrow_mut();
                    part.remove(&key);
                    part.values().sum::<f64>()
                };
                self.ui.progress.update(|p| {
                    p.done_bytes += bytes as f64;
                    p.current = current;
                })
            }
            IngestEvent::Warning { error } => self.ui.notice.set(Some(error.into().into())),
            IngestEvent::Idle => {
                self.embedding.borrow_mut().clear();
                self.ui.progress.set(Progress::default());
                self.ui.busy.set(false);
            }
        }
    }

    fn set_status(&self, key: u64, f: impl FnOnce(&mut Row)) {
        self.ui.rows.update(|rows| {
            if let Some(r) = rows.iter_mut().find(|r| r.key == key) {
                f(r);
            }
        });
    }
}

mod results;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
pub mod versions;
