//! The ingestion queue: files wait here, are opened and read by the platform's reader, embedded
//! a slice at a time, and stored one transaction per document in a [`Library`]. It knows
//! nothing of the page: it emits [`IngestEvent`]s that the app turns into rows, progress and
//! translated notices, and it gets reading and embedding from a [`Services`] (the browser's
//! reader worker and onnxruntime-web; natively, or in tests, in-process ones).
//!
//! Order of work, and why:
//! - every queued file is kept as pending in the store before any slow work, so a closed tab
//!   can offer them all again;
//! - every queued file is opened (cross-reference table, password) before the first one is
//!   embedded, so a file that cannot be read at all is reported at once, not minutes later;
//! - with several files read, the first [`HEAD`] chunks of every one are embedded before the
//!   rest of any, then the file with the fewest chunks left is finished first, so the first
//!   pages of every file are searchable by meaning, and short files ready, soonest; a file a
//!   search finds while it waits ([`Queue::prefer`]) goes before them;
//! - a document replaces its stored copy only once it is embedded and stored
//!   ([`Library::add`]), so re-indexing never deletes before the replacement is stored.

mod file;
mod protocol;
mod triage;

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use crate::library::Library;
use crate::search::corpus::{About, DocumentMeta};
use crate::store::Store;
use crate::DocId;
use crate::Error;
use file::ReadFile;
pub use protocol::{Added, File, IngestEvent, Services};

/// Chunks per embedding call between pauses, unless the platform embeds several side by side
/// ([`Services::slice`]). Each call costs the page a task; one chunk per call keeps the page
/// responsive (searches interleave) and costs a few percent of throughput.
pub const SLICE: usize = 1;

/// Chunks of each read file embedded before the rest of any one: with several files queued,
/// the first pages of every one are searchable by meaning soonest, not the whole of the first
/// and nothing of the others (about the first five pages of prose; 4 s of the 8-bit model on
/// one thread in the browser, docs/PERFORMANCE.md).
pub const HEAD: usize = 32;

/// A file in the queue. Cloned as it moves between the queue's stages, so its bytes are
/// shared, not copied (a PDF can be hundreds of megabytes).
#[derive(Clone)]
struct Job {
    key: u64,
    name: String,
    bytes: Rc<Vec<u8>>,
    id: DocId,
    password: Option<String>,
    // Whether it is already kept as pending in the store (written once per file).
    pending_saved: bool,
    // Whether it was already opened once to see if it can be read at all.
    triaged: bool,
    // A stored document being re-embedded for a model switch: its PDF is already stored (no
    // pending copy), and it replaces its old copy only once re-embedded.
    replaces: bool,
    // What was known of the stored copy it replaces (its date, versions), kept with it.
    about: Option<About>,
}

/// Why one file's ingestion stopped.
enum Stop<E> {
    Full,
    Failed(E),
}

/// The queue. Single-threaded like [`Library`]: `&self` methods, no borrow held across an
/// `.await`, so files can be added while [`run`](Self::run) works.
#[derive(Default)]
pub struct Queue {
    jobs: RefCell<VecDeque<Job>>,
    // Files refused for want of a password: kept in memory (never stored) so the user can
    // type the password without picking the file again.
    locked: RefCell<Vec<Job>>,
    running: Cell<bool>,
    cancel: Cell<bool>,
    // The document a search found while it was still embedding ([`Queue::prefer`]).
    wanted: RefCell<Option<DocId>>,
}

impl Queue {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Embeds the read file with document id `id` next, ahead of the shortest-first order,
    /// leaving the one being embedded after its current slice (it goes on afterwards): the
    /// document the user is searching becomes searchable by meaning first. A file the queue
    /// does not hold is ignored.
    pub fn prefer(&self, id: &DocId) {
        *self.wanted.borrow_mut() = Some(id.clone());
    }

    /// Queues files for `library`. A file with the bytes of a stored or queued document is a
    /// duplicate and is skipped, unless the stored copy's text came from a bundle: then the
    /// file is read and replaces it (`library::provenance`). Refused with [`Error::Mismatch`] while the library is of
    /// another build: two models' vectors are never mixed.
    pub fn add<S: Store>(
        &self,
        library: &Library<S>,
        files: Vec<File>,
    ) -> Result<Vec<Added>, Error> {
        if library.is_mismatched() {
            return Err(Error::Mismatch);
        }
        let mut added = Vec::with_capacity(files.len());
        for file in files {
            let id = DocId::of(&file.bytes);
            let queued = self
                .jobs
                .borrow()
                .iter()
                .find(|j| j.id == id)
                .map(|j| j.name.clone());
            let stored = match library.from_bundle(&id) {
                Some(_) => None,
                None => library.name_of(&id),
            };
            let duplicate_of = stored.or(queued);
            if duplicate_of.is_none() {
                self.jobs.borrow_mut().push_back(Job {
                    key: file.key,
                    name: file.name,
                    bytes: Rc::new(file.bytes),
                    id: id.clone(),
                    password: None,
                    pending_saved: false,
                    triaged: false,
                    replaces: false,
                    about: None,
                });
            }
            added.push(Added {
                key: file.key,
                id,
                duplicate_of,
            });
        }
        Ok(added)
    }

    /// Queues a stored document to be embedded again from its stored PDF (a model switch):
    /// it replaces its stored copy once done.
    pub fn replace(&self, key: u64, meta: &DocumentMeta, pdf: Vec<u8>) {
        self.jobs.borrow_mut().push_back(Job {
            key,
            name: meta.name.clone(),
            bytes: Rc::new(pdf),
            id: meta.id.clone(),
            password: None,
            pending_saved: true,
            triaged: false,
            replaces: true,
            about: Some(meta.about.clone()),
        });
    }

    /// Queues again a file rejected for want of a password, with `password`; its size in
    /// bytes, or `None` when no such file waits.
    pub fn unlock(&self, key: u64, password: String) -> Option<usize> {
        let mut job = {
            let mut locked = self.locked.borrow_mut();
            let at = locked.iter().position(|j| j.key == key)?;
            locked.remove(at)
        };
        job.password = Some(password);
        job.pending_saved = false;
        job.triaged = false;
        let bytes = job.bytes.len();
        self.jobs.borrow_mut().push_back(job);
        Some(bytes)
    }

    /// Stops after the current slice; files not started are dropped (each gets
    /// [`IngestEvent::Cancelled`]).
    pub fn cancel(&self) {
        self.cancel.set(true);
    }

    /// Drops every waiting and locked file without events (the library was cleared).
    pub fn forget(&self) {
        self.cancel.set(true);
        self.locked.borrow_mut().clear();
    }

    /// Whether [`run`](Self::run) is working.
    pub fn is_running(&self) -> bool {
        self.running.get()
    }

    /// Whether files wait.
    pub fn is_empty(&self) -> bool {
        self.jobs.borrow().is_empty()
    }

    /// Ids of the files waiting.
    pub fn queued_ids(&self) -> Vec<DocId> {
        self.jobs.borrow().iter().map(|j| j.id.clone()).collect()
    }

    /// Works until no file waits (files added meanwhile included), then saves the index and
    /// ends a model switch whose documents are all moved. Every queued file is read (and so
    /// searchable by its words) before the next one is embedded, the first [`HEAD`] chunks
    /// of every file read are embedded before the rest of any, and then the file with the
    /// fewest chunks left is finished first. Returns at once if already running.
    pub async fn run<S: Store, X: Services>(
        &self,
        library: &Library<S>,
        services: &X,
        on: &dyn Fn(IngestEvent<X::Error>),
    ) {
        if self.running.replace(true) {
            return;
        }
        self.cancel.set(false);
        // Read, waiting to be embedded, in queue order.
        let mut read: VecDeque<ReadFile<'_, S>> = VecDeque::new();
        loop {
            self.keep_pending(library, on).await;
            self.reject_unreadable(library, services, on).await;
            self.read_queued(library, services, &mut read, on).await;
            if self.cancel.get() {
                for file in read.drain(..) {
                    on(IngestEvent::Cancelled { key: file.job.key });
                    self.drop_pending(library, &file.job).await;
                    on(IngestEvent::Left {
                        key: file.job.key,
                        bytes: file.job.bytes.len(),
                    });
                }
            }
            // The first pages of every file read, before the rest of any.
            if read.len() > 1 {
                self.embed_heads(library, services, &mut read, on).await;
                if self.cancel.get() {
                    // Dropped with the files read, at the top of the loop.
                    continue;
                }
            }
            // Then the file a search asked for, else the one with the fewest chunks left, in
            // queue order among equals: the shortest job first makes files ready soonest on
            // average (one the heads embedded whole is stored at once), and a long file no
            // longer keeps short ones waiting.
            let wanted = self.wanted.borrow().clone();
            let next = wanted
                .and_then(|w| read.iter().position(|f| f.job.id == w))
                .or_else(|| {
                    let fewest = read.iter().enumerate().min_by_key(|(_, f)| f.chunks_left());
                    fewest.map(|(i, _)| i)
                })
                .unwrap_or(0);
            let Some(mut file) = read.remove(next) else {
                // One save of the index per batch (it is rebuilt from the documents if the tab
                // closes first), and a switch ends once every document is moved.
                if let Err(e) = library.save_index().await {
                    on(IngestEvent::Warning { error: e.into() });
                }
                if let Err(e) = library.finish_switch().await {
                    on(IngestEvent::Warning { error: e.into() });
                }
                // Files may have come while those were written.
                if self.jobs.borrow().is_empty() {
                    break;
                }
                continue;
            };
            let (key, bytes) = (file.job.key, file.job.bytes.len());
            let job = file.job.clone();
            // A search that asks for another file read and waiting interrupts this one.
            let waiting: Vec<DocId> = read.iter().map(|f| f.job.id.clone()).collect();
            let elsewhere = || {
                let wanted = self.wanted.borrow();
                wanted
                    .as_ref()
                    .is_some_and(|w| *w != job.id && waiting.contains(w))
            };
            let result = match self
                .embed_until(services, &mut file, usize::MAX, on, &elsewhere)
                .await
            {
                Ok(true) if file.chunks_left() > 0 => {
                    read.push_back(file);
                    continue;
                }
                Ok(true) => self.store(library, file, on).await,
                Ok(false) => {
                    on(IngestEvent::Cancelled { key });
                    self.drop_pending(library, &job).await;
                    Ok(())
                }
                Err(stop) => Err(stop),
            };
            self.ended(library, &job, result, on).await;
            on(IngestEvent::Left { key, bytes });
        }
        self.running.set(false);
        on(IngestEvent::Idle);
    }
}
