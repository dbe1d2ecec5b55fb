//! The page's side of ingestion: files join the core [`fonte_core::ingest::queue::Queue`], which
//! reads them in the reader worker, embeds and stores them; its events become rows, progress
//! and translated notices here. Dropped files, and the pending files of an earlier visit, are
//! read into the page one after another, as what the queue holds leaves room ([`PAGE_MIB`]): a
//! drop of many large files never holds them all at once, and each is read once.

use std::rc::Rc;

use fonte_core::ingest::queue::{File, IngestEvent};
use fonte_core::store::Store;
use fonte_core::DocId;
use gloo::timers::future::TimeoutFuture;
use leptos::prelude::*;

use super::rows::now_ms;
use super::Engine;
use crate::platform::assets::address_number;
use crate::platform::files::read_file;
use crate::state::Notice;
use crate::AppError;

/// Bytes of dropped files the queue may hold at once, MiB (a single larger file is read when
/// the queue is empty). `?page-mib=N` lowers it.
pub const PAGE_MIB: f64 = 256.0;

fn page_budget() -> f64 {
    address_number("page-mib").map_or(PAGE_MIB, |n| n.min(PAGE_MIB)) * (1 << 20) as f64
}

/// Where a file waiting to be read into the page is.
pub enum Waiting {
    /// Dropped or picked: the browser's handle (its bytes are still on disk).
    Dropped(web_sys::File),
    /// Kept as pending by an earlier visit: its bytes are in the store.
    Pending(DocId),
}

impl Engine {
    /// Shows dropped files (name, size, the browser's handle) as queued at once, then reads
    /// each into the page and queues it when what the queue holds leaves room for it.
    pub fn add_dropped(self: &Rc<Self>, files: Vec<(String, f64, web_sys::File)>) {
        self.add_waiting(
            files
                .into_iter()
                .map(|(name, size, file)| (name, size, Waiting::Dropped(file)))
                .collect(),
        );
    }

    /// [`Self::add_dropped`] for files wherever they wait.
    pub fn add_waiting(self: &Rc<Self>, files: Vec<(String, f64, Waiting)>) {
        let files: Vec<(u64, String, f64, Waiting)> = files
            .into_iter()
            .map(|(name, size, file)| {
                let key = self.rows.key();
                self.rows.waiting(key, name.clone(), size);
                (key, name, size, file)
            })
            .collect();
        self.waiting.set(self.waiting.get() + files.len());
        let me = self.clone();
        let cancels = self.cancels.get();
        leptos::task::spawn_local(async move {
            let budget = page_budget();
            for (key, name, size, file) in files {
                while me.cancels.get() == cancels
                    && me.held.get() > 0.0
                    && me.held.get() + size > budget
                {
                    TimeoutFuture::new(100).await;
                }
                me.waiting.set(me.waiting.get() - 1);
                if me.cancels.get() != cancels {
                    me.rows.not_read(key, None);
                    continue;
                }
                match me.read_waiting(file).await {
                    Ok(bytes) => me.queue_files(vec![(key, name, size, bytes)]),
                    Err(err) => me.rows.not_read(key, Some(err)),
                }
            }
            // Nothing left to read, and nothing ran (all cancelled or unreadable): idle.
            if me.waiting.get() == 0 && !me.queue().is_running() {
                me.show(IngestEvent::Idle);
            }
        });
    }

    /// A waiting file's bytes.
    async fn read_waiting(&self, file: Waiting) -> Result<Vec<u8>, AppError> {
        match file {
            Waiting::Dropped(file) => read_file(&file).await.map_err(AppError::File),
            Waiting::Pending(id) => match self.library().store().pending_bytes(&id).await? {
                Some(bytes) => Ok(bytes),
                None => Err(AppError::Storage(format!("no bytes kept for {id}"))),
            },
        }
    }

    /// Queues files (row key, name, size, bytes) for ingestion and starts the queue if idle.
    /// Duplicates of a stored or queued document are reported and skipped.
    fn queue_files(self: &Rc<Self>, files: Vec<(u64, String, f64, Vec<u8>)>) {
        let files: Vec<(File, f64)> = files
            .into_iter()
            .map(|(key, name, size, bytes)| (File { key, name, bytes }, size))
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
                names.iter().for_each(|(key, _, _)| self.rows.refused(*key));
                return;
            }
            Err(e) => {
                self.ui.notice.set(Some(AppError::from(e).into()));
                names.iter().for_each(|(key, _, _)| self.rows.refused(*key));
                return;
            }
        };
        for (a, (_, _, size)) in added.iter().zip(&names) {
            if a.duplicate_of.is_none() {
                self.held.set(self.held.get() + size);
            }
        }
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
        if let IngestEvent::Left { bytes, .. } = &event {
            self.held.set((self.held.get() - *bytes as f64).max(0.0));
        }
        // Dropped files still to be read: the run goes on when they join.
        if idle && self.waiting.get() > 0 {
            return;
        }
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
        self.held.set(self.held.get() + bytes as f64);
        self.start();
    }

    /// Stops after the current slice; files not started are dropped from the queue, and
    /// dropped files not read yet are not read.
    pub fn cancel(&self) {
        self.cancels.set(self.cancels.get() + 1);
        self.queue().cancel();
    }
}
