//! The ingestion queue: files wait here, are opened and read in the reader worker, embedded,
//! and stored one transaction per document; each row of the library follows its file.

use std::rc::Rc;

use fonte_core::pdf::{document_id, RejectReason, Report};
use fonte_core::store::{PendingFile, Store};
use leptos::prelude::*;

use super::{now_ms, Engine};
use crate::i18n::*;
use crate::state::{Loaded, Progress, Row, Status, Why};
use crate::{AppError, AppResult};

/// Chunks per embedding call between yields to the page. onnxruntime-web runs inference in
/// its proxy worker, but each call still costs the page a task; one chunk per call keeps the
/// page responsive and costs a few percent of throughput.
pub(super) const SLICE: usize = 1;

/// A file waiting in the queue.
pub(super) struct Job {
    pub(super) key: u64,
    pub(super) name: String,
    pub(super) bytes: Vec<u8>,
    pub(super) id: String,
    pub(super) password: Option<String>,
    // Whether the file is already kept as pending in the store (written once per file).
    pub(super) pending_saved: bool,
    // Whether it was already opened once to see if it can be read at all.
    pub(super) triaged: bool,
    // A stored document being re-embedded for a model switch: its PDF is already stored
    // (no pending copy), and it replaces its old copy only once re-embedded.
    pub(super) replaces: bool,
}

impl Engine {
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
            let known = self.library.name_of(&id);
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

    pub(super) async fn run_queue(self: Rc<Self>) {
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
                match self.library.store().put_pending(p).await {
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
                let _ = self.library.store().delete_pending(&job.id).await;
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
                        let _ = self.library.store().delete_pending(&job.id).await;
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
        let _ = self.library.save_index().await;
        // A model switch ends once every document is moved; until then the library opens with
        // the moved ones and re-embeds the rest.
        if let Err(e) = self.library.finish_switch().await {
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
        let reader = match self.service().reader().await {
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
    pub(super) async fn reject(&self, job: &Job, report: &Report) -> AppResult<()> {
        let status = Status::from_report(report);
        if status == Status::Rejected(Why::Password) {
            self.locked
                .borrow_mut()
                .push((job.key, job.name.clone(), job.bytes.clone()));
        }
        self.set_status(job.key, |r| r.status = status);
        self.library.store().delete_pending(&job.id).await?;
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
}
