//! The page's side of ingestion: files join the core [`fonte_core::ingest::queue::Queue`], which
//! reads them in the reader worker, embeds and stores them; its events become rows, progress
//! and translated notices here.

use std::rc::Rc;

use fonte_core::ingest::queue::{File, IngestEvent};
use leptos::prelude::*;

use super::rows::now_ms;
use super::Engine;
use crate::state::Notice;
use crate::AppError;

impl Engine {
    /// Queues files (name, size, bytes) for ingestion and starts the queue if idle. Duplicates
    /// of a stored or queued document are reported and skipped.
    pub fn add_files(self: &Rc<Self>, files: Vec<(String, f64, Vec<u8>)>) {
        let files: Vec<(File, f64)> = files
            .into_iter()
            .map(|(name, size, bytes)| {
                let key = self.rows.key();
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
        self.rows.added(added, names, &self.queue().queued_ids());
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

    /// What an ingestion event changes on the page; once the queue is idle the embedding
    /// workers only ingesting uses are let go.
    fn show(&self, event: IngestEvent<AppError>) {
        let idle = event == IngestEvent::Idle;
        self.rows.show(event);
        if idle {
            let service = self.service();
            leptos::task::spawn_local(async move { service.shrink().await });
        }
    }

    /// Tries a file that needed a password again, with `password`.
    pub fn unlock(self: &Rc<Self>, key: u64, password: String) {
        let Some(bytes) = self.queue().unlock(key, password) else {
            return;
        };
        self.rows.unlocked(key, bytes);
        self.start();
    }

    /// Stops after the current slice; files not started are dropped from the queue.
    pub fn cancel(&self) {
        self.queue().cancel();
    }
}
