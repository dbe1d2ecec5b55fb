//! What the ingestion queue trades with its host: the [`Services`] it needs from the platform,
//! the [`File`]s it is given, how it took them ([`Added`]) and what it reports
//! ([`IngestEvent`]).

use crate::ingest::Prepared;
use crate::pdf::Report;
use crate::search::chunk::ChunkParams;
use crate::DocId;
use crate::Error;

/// What the queue needs from the platform. Browser futures are not `Send`, so neither are
/// these.
#[allow(async_fn_in_trait)]
pub trait Services {
    /// The platform's error (the app's own enum), carried by [`IngestEvent::Failed`].
    type Error: From<Error>;

    /// Whether the file can be read at all: `None` when it opens, else its rejected report
    /// (a password needed, not a PDF, the reader stopped on it). Cheap: no page is read.
    async fn open(
        &self,
        name: &str,
        bytes: &[u8],
        password: Option<&str>,
    ) -> Result<Option<Report>, Self::Error>;

    /// Reads and chunks the file; `Err(report)` when the reader stopped on it (a panic, a
    /// time or memory limit) and the file is rejected with that report.
    async fn read(
        &self,
        name: &str,
        bytes: &[u8],
        password: Option<&str>,
        params: ChunkParams,
    ) -> Result<Result<Prepared, Report>, Self::Error>;

    /// Passage vectors of `texts`, in order.
    async fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, Self::Error>;

    /// Chunks to hand [`embed`](Self::embed) at a time: [`SLICE`](super::SLICE), or as many
    /// as the platform embeds side by side (the page's pool of workers).
    fn slice(&self) -> usize {
        super::SLICE
    }

    /// Lets the host breathe between steps (the browser paints and handles input).
    async fn pause(&self) {}
}

/// A file given to the queue.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    /// The caller's key for it (a row of the page), echoed in every event.
    pub key: u64,
    /// The file name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// How [`Queue::add`] took a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    /// The file's key.
    pub key: u64,
    /// The document id (SHA-256 of the bytes).
    pub id: DocId,
    /// The name of the stored or queued document with the same bytes, when it is a duplicate
    /// (skipped); `None` when queued.
    pub duplicate_of: Option<String>,
}

/// What happened to a file, or to the queue.
#[derive(Debug, Clone, PartialEq)]
pub enum IngestEvent<E> {
    /// Reading and chunking it.
    Reading {
        /// The file's key.
        key: u64,
    },
    /// Read: what will be embedded.
    Read {
        /// The file's key.
        key: u64,
        /// Physical pages.
        pages: u32,
        /// Chunks to embed.
        chunks: usize,
        /// Whether its chunks are searchable by their text already, before their vectors (not
        /// when an older copy of it is searched meanwhile, in a model switch).
        searchable: bool,
    },
    /// About to embed the next slice.
    Embedding {
        /// The file's key.
        key: u64,
        /// Chunks embedded so far.
        done: usize,
        /// Chunks in all.
        total: usize,
        /// Chunks embedded since the last event about this file.
        embedded: usize,
        /// The file's size, bytes (for progress by bytes).
        bytes: usize,
    },
    /// Stored and searchable by text and vector.
    Stored {
        /// The file's key.
        key: u64,
        /// How complete its text is.
        report: Report,
    },
    /// Nothing of it could be read; it is not stored.
    Rejected {
        /// The file's key.
        key: u64,
        /// Why.
        report: Report,
        /// Whether the queue keeps it for [`Queue::unlock`] (it needs a password).
        locked: bool,
    },
    /// Dropped by [`Queue::cancel`] before it was stored.
    Cancelled {
        /// The file's key.
        key: u64,
    },
    /// Not stored: the storage is full (no pending copy of it stays behind).
    StorageFull {
        /// The file's key.
        key: u64,
    },
    /// An error of the platform (the reader could not start, the model failed).
    Failed {
        /// The file's key.
        key: u64,
        /// What went wrong.
        error: E,
    },
    /// The file left the queue, however it ended.
    Left {
        /// The file's key.
        key: u64,
        /// Its size, bytes.
        bytes: usize,
    },
    /// Not fatal: keeping a pending copy failed, so the file is ingested but would not be
    /// offered again if the tab closed first; or saving the index at the end failed (it is
    /// rebuilt from the documents on the next visit).
    Warning {
        /// What went wrong.
        error: E,
    },
    /// The queue is empty and the index saved.
    Idle,
}
