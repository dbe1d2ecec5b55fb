//! What the page shows, as signals: one [`Ui`] (all `Copy` handles) shared by the components
//! and updated by the engine.

use fonte_core::pdf::{Loss, PartialReason, RejectReason, Report, Stopped, Unreadable};
use fonte_core::search::corpus::VersionNote;
use leptos::prelude::*;

use crate::models::Model;
use crate::models::Placement;
use crate::AppError;
use fonte_core::search::corpus::BuildInfo;
use fonte_core::DocId;

mod versions;

pub use versions::{DocVersion, ProposalView, Versions};

/// Where a file is in ingestion, or how it ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Waiting for the files before it.
    Queued,
    /// Reading its text and chunking it.
    Parsing,
    /// Read and chunked; waits for the files before it to be embedded.
    Waiting {
        /// Chunks to embed.
        chunks: usize,
        /// Whether its chunks are searchable by their words meanwhile.
        searchable: bool,
    },
    /// Embedding its chunks.
    Embedding {
        /// Chunks embedded so far.
        done: usize,
        /// Chunks in all.
        total: usize,
        /// Whether its chunks are searchable by their words meanwhile.
        searchable: bool,
    },
    /// Stored and searchable.
    Ready,
    /// Stored, but some pages have no text.
    Partial {
        /// Why.
        why: PartialReason,
        /// How many pages.
        pages: usize,
    },
    /// Nothing could be read.
    Rejected(Why),
    /// The same file (same SHA-256) is already in the library under this name.
    Duplicate(String),
    /// Stopped by the user before it was stored.
    Cancelled,
    /// Not stored: the browser's storage for the site is full.
    StorageFull,
    /// An error of the browser or the model.
    Failed(AppError),
    /// Stored, but its record in the browser's storage cannot be read back: delete it and add
    /// the file again.
    Damaged,
}

/// Why a file was rejected; each says what the user can do (translated when shown).
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    /// Encrypted: give its password.
    Password,
    /// Encrypted for its recipients by another security handler (its name): no password.
    Recipients(String),
    /// Scanned, no text layer: OCR it first.
    Scanned,
    /// Text is shown but none of it decodes (why, glyphs shown): OCR it.
    Undecodable(Loss, u32),
    /// Not a readable PDF (the parser's words).
    Malformed(Unreadable, String),
    /// Not a PDF at all.
    NotPdf,
    /// Over the size limit: (its size, the limit), bytes.
    TooLarge(u64, u64),
    /// The reader (the parsing worker) stopped on it.
    Stopped(Stopped),
}

impl Status {
    /// The final status of a stored document.
    pub fn from_report(report: &Report) -> Self {
        match report {
            Report::Complete => Status::Ready,
            Report::Partial { pages, reason } => Status::Partial {
                why: *reason,
                pages: pages.len(),
            },
            Report::Rejected { reason } => Status::Rejected(match reason {
                RejectReason::NeedsPassword => Why::Password,
                RejectReason::OtherSecurityHandler { handler } => Why::Recipients(handler.clone()),
                RejectReason::NoTextLayer => Why::Scanned,
                RejectReason::Undecodable { why, shown } => Why::Undecodable(*why, *shown),
                RejectReason::Malformed { cause, detail } => Why::Malformed(*cause, detail.clone()),
                RejectReason::TooLarge { bytes, max } => Why::TooLarge(*bytes, *max),
                RejectReason::ReaderStopped { why } => Why::Stopped(why.clone()),
            }),
        }
    }

    /// Short machine-readable name (tests and styling).
    pub fn kind(&self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Parsing => "parsing",
            Status::Waiting { .. } => "waiting",
            Status::Embedding { .. } => "embedding",
            Status::Ready => "ready",
            Status::Partial { .. } => "partial",
            Status::Rejected(_) => "rejected",
            Status::Duplicate(_) => "duplicate",
            Status::Cancelled => "cancelled",
            Status::StorageFull => "storage-full",
            Status::Failed(_) => "failed",
            Status::Damaged => "damaged",
        }
    }

    /// Whether the document is stored (and can be deleted).
    pub fn is_stored(&self) -> bool {
        matches!(
            self,
            Status::Ready | Status::Partial { .. } | Status::Damaged
        )
    }
}

/// One row of the library.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Unique within the page.
    pub key: u64,
    /// Document id (SHA-256), once known.
    pub id: Option<DocId>,
    /// File name, shown as text.
    pub name: String,
    /// Size in bytes (files added in this visit).
    pub size: Option<f64>,
    /// Pages, once parsed.
    pub pages: Option<u32>,
    /// Chunks, once chunked.
    pub chunks: Option<usize>,
    /// Status.
    pub status: Status,
    /// The title of the bundle its text came from, when it was not read here from the PDF.
    pub from_bundle: Option<String>,
}

/// Overall ingestion progress, by bytes of the queued files.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Progress {
    /// Bytes of every file queued since the queue last went idle.
    pub total_bytes: f64,
    /// Bytes of the files finished.
    pub done_bytes: f64,
    /// Bytes done of the files part-embedded (each file's bytes times its share embedded).
    pub current: f64,
    /// When the queue started (ms since the epoch), 0 when idle.
    pub started_ms: f64,
    /// Chunks embedded since then.
    pub chunks_embedded: usize,
    /// Chunks of every file read since then (known before embedding: each queued file is read
    /// before the next one is embedded).
    pub chunks_total: usize,
    /// When the first of those chunks was embedded (ms since the epoch), 0 before.
    pub embedding_since_ms: f64,
}

impl Progress {
    /// Fraction done, 0..=1.
    pub fn fraction(&self) -> f64 {
        if self.total_bytes <= 0.0 {
            0.0
        } else {
            ((self.done_bytes + self.current) / self.total_bytes).clamp(0.0, 1.0)
        }
    }

    /// Seconds left at the pace so far, once there is a pace: the chunks left at the measured
    /// embedding rate, or before that (and with files not read yet) by bytes.
    pub fn eta_seconds(&self, now_ms: f64) -> Option<f64> {
        if self.chunks_embedded >= 4
            && self.embedding_since_ms > 0.0
            && self.chunks_total > self.chunks_embedded
        {
            let seconds = ((now_ms - self.embedding_since_ms) / 1000.0).max(0.001);
            let rate = self.chunks_embedded as f64 / seconds;
            return Some((self.chunks_total - self.chunks_embedded) as f64 / rate);
        }
        let f = self.fraction();
        if f < 0.02 || self.started_ms == 0.0 {
            return None;
        }
        let elapsed = (now_ms - self.started_ms) / 1000.0;
        Some(elapsed * (1.0 - f) / f)
    }
}

/// How the library came back when the page opened.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded {
    /// Still opening.
    Opening,
    /// Downloading a hosted corpus: bytes received, of (0 when unknown).
    Downloading {
        /// Bytes received.
        done: u64,
        /// Bytes expected.
        total: u64,
    },
    /// Storing a downloaded corpus: documents stored, of.
    Storing {
        /// Documents stored.
        done: usize,
        /// Documents in all.
        total: usize,
    },
    /// Searchable.
    Ready {
        /// Whether the saved index was used (else rebuilt from stored chunks and vectors).
        restored: bool,
        /// Documents.
        documents: usize,
        /// Chunks.
        chunks: usize,
        /// Time to open, ms.
        ms: f64,
    },
    /// Stored with another model or chunker: must be re-indexed.
    Mismatch {
        /// What it was built with.
        stored: BuildInfo,
    },
    /// A hosted corpus on another site than the page's: waits for the user to agree before
    /// anything is requested from it.
    AskToOpen {
        /// That site's origin.
        origin: String,
    },
    /// Could not open.
    Failed(AppError),
}

/// One search result.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRow {
    /// Chunk number.
    pub chunk: u32,
    /// Document id.
    pub doc_id: DocId,
    /// Document name.
    pub doc_name: String,
    /// 1-based page.
    pub page: u32,
    /// Fused score.
    pub score: f32,
    /// Headings above the passage.
    pub heading: String,
    /// Where the passage is in its page's text, in characters.
    pub char_start: usize,
    /// End (exclusive).
    pub char_end: usize,
    /// The passage as runs of text, `true` where a query word matched.
    pub runs: Vec<(String, bool)>,
    /// Found by its words alone: its document is still being embedded.
    pub lexical_only: bool,
    /// Which version of its text its document is, when it is one of a group.
    pub version: Option<VersionNote>,
}

/// What the page tells the user about a whole operation; worded by
/// `components::errors::notice_text` in the interface language.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// An operation failed.
    Error(AppError),
    /// Files cannot be added to a library of another model until it is re-indexed.
    ReindexFirst,
    /// The model cannot change while files are being added.
    SwitchWhileBusy,
    /// A file was not stored: the browser's storage for the site is full.
    StorageFull,
    /// An older version of the app holds the storage open in another tab.
    DbBlocked,
    /// The app was updated in another tab, which closed this tab's connection.
    DbClosedForUpgrade,
    /// A hosted corpus changed on its site since it was stored.
    CorpusUpdated {
        /// Documents added.
        added: usize,
        /// Documents removed.
        removed: usize,
    },
    /// Files dropped while the library could not open.
    FilesNotAdded(AppError),
    /// The question was searched as typed: the translation on this device failed.
    TranslationUnavailable(AppError),
}

impl From<AppError> for Notice {
    fn from(e: AppError) -> Self {
        Notice::Error(e)
    }
}

/// The page's signals.
#[derive(Clone, Copy)]
pub struct Ui {
    /// Library rows.
    pub rows: RwSignal<Vec<Row>>,
    /// Ingestion progress.
    pub progress: RwSignal<Progress>,
    /// Whether ingestion is running.
    pub busy: RwSignal<bool>,
    /// A message for the user (errors of whole operations), worded where it is shown.
    pub notice: RwSignal<Option<Notice>>,
    /// Unfinished files of an earlier visit: (id, name).
    pub pending: RwSignal<Vec<(DocId, String)>>,
    /// How the library opened.
    pub loaded: RwSignal<Loaded>,
    /// Bumped whenever the searchable documents change.
    pub generation: RwSignal<u64>,
    /// Storage used and available, bytes.
    pub storage: RwSignal<Option<(f64, f64)>>,
    /// Where the embedding model runs, once loaded.
    pub placement: RwSignal<Option<Placement>>,
    /// The installed embedding models (the default first).
    pub models: RwSignal<Vec<Model>>,
    /// Id of the model the library uses.
    pub model: RwSignal<String>,
    /// The library on screen: its database and title (empty for the reader's own).
    pub library: RwSignal<(String, String)>,
    /// The user's answer to [`Loaded::AskToOpen`].
    pub consent: RwSignal<Option<bool>>,
    /// The documents' dates and versions.
    pub versions: RwSignal<Versions>,
    /// Whether superseded versions are searched (and given as evidence) too.
    pub all_versions: RwSignal<bool>,
}

impl Ui {
    /// Fresh signals.
    pub fn new() -> Self {
        Self {
            rows: RwSignal::new(Vec::new()),
            progress: RwSignal::new(Progress::default()),
            busy: RwSignal::new(false),
            notice: RwSignal::new(None),
            pending: RwSignal::new(Vec::new()),
            loaded: RwSignal::new(Loaded::Opening),
            generation: RwSignal::new(0),
            placement: RwSignal::new(None),
            models: RwSignal::new(Vec::new()),
            model: RwSignal::new(String::new()),
            storage: RwSignal::new(None),
            library: RwSignal::new((String::new(), String::new())),
            consent: RwSignal::new(None),
            versions: RwSignal::new(Versions::default()),
            all_versions: RwSignal::new(false),
        }
    }
}

impl Default for Ui {
    fn default() -> Self {
        Self::new()
    }
}
