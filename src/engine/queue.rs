//! The page's side of ingestion: files join the core [`fonte_core::ingest::queue::Queue`], which
//! reads them in the reader worker, embeds and stores them; its events become rows, progress
//! and translated notices here.

use std::rc::Rc;

use fonte_core::ingest::queue::{File, IngestEvent};
use leptos::prelude::*;

use super::{now_ms, Engine};
use crate::state::{Notice, Progress, Row, Status};
use crate::AppError;

impl Engine {
    /// Queues files (name, size, bytes) for ingestion and starts the queue if idle. Duplicates
    /// of a stored or queued document are reported and skipped.
    pub fn add_files(self: &Rc<Self>, files: Vec<(String, f64, Vec<u8>)>) {
        let files: Vec<(File, f64)> = files
            .into_iter()
            .map(|(name, size, bytes)| {
                let key = self.key();
                (File { key, name, bytes }, size)
            })
            .collect();
        let names: Vec<(u64, String, f64)> = files
            .iter()
            .map(|(f, size)| (f.key, f.name.clone(), *size))
            .collect();
        let added = match self
            .session
            .add(files.into_iter().map(|(f, _)| f).collect())
        {
            Ok(added) => added,
            // Never mix vectors of two models: the stored library must be re-indexed first.
            Err(fonte_core::Error::Mismatch) => {
                self.ui.notice.set(Some(Notice::ReindexFirst));
                return;
            }
            Err(e) => {
                self.ui.notice.set(Some(AppError::from(e).into()));
                return;
            }
        };
        for (added, (key, name, size)) in added.into_iter().zip(names) {
            let queued = added.duplicate_of.is_none();
            let status = added.duplicate_of.map_or(Status::Queued, Status::Duplicate);
            self.ui.rows.update(|rows| {
                rows.push(Row {
                    key,
                    id: Some(added.id),
                    name,
                    size: Some(size),
                    pages: None,
                    chunks: None,
                    status,
                })
            });
            if queued {
                self.ui.progress.update(|p| p.total_bytes += size);
            }
        }
        let queued = self.queue().queued_ids();
        self.ui
            .pending
            .update(|p| p.retain(|(id, _)| !queued.contains(id)));
        self.start();
    }

    /// Starts the queue unless it is running (then it picks new files up itself). An empty
    /// run still ends a model switch with nothing left to move (an empty library).
    pub(super) fn start(self: &Rc<Self>) {
        if self.queue().is_running() {
            return;
        }
        let me = self.clone();
        leptos::task::spawn_local(async move {
            me.ui.busy.set(true);
            me.ui.progress.update(|p| {
                if p.started_ms == 0.0 {
                    p.started_ms = now_ms();
                }
            });
            me.session.ingest(&|event| me.show(event)).await;
            me.refresh_storage().await;
        });
    }

    /// What an ingestion event changes on the page.
    fn show(&self, event: IngestEvent<AppError>) {
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
                self.set_status(key, |r| r.status = Status::Failed(error))
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
            IngestEvent::Warning { error } => self.ui.notice.set(Some(error.into())),
            IngestEvent::Idle => {
                let service = self.service();
                leptos::task::spawn_local(async move { service.shrink().await });
                self.embedding.borrow_mut().clear();
                self.ui.progress.set(Progress::default());
                self.ui.busy.set(false);
            }
        }
    }

    /// Tries a file that needed a password again, with `password`.
    pub fn unlock(self: &Rc<Self>, key: u64, password: String) {
        let Some(bytes) = self.queue().unlock(key, password) else {
            return;
        };
        self.set_status(key, |r| r.status = Status::Queued);
        self.ui.progress.update(|p| p.total_bytes += bytes as f64);
        self.start();
    }

    /// Stops after the current slice; files not started are dropped from the queue.
    pub fn cancel(&self) {
        self.queue().cancel();
    }
}
