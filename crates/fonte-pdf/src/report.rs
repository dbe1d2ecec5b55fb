//! How much of a file Fonte could read, and why not all of it: typed reasons the app and the
//! CLI word (the core composes no text for users).

use serde::{Deserialize, Serialize};

use super::font::Loss;

/// The share of a page's visible glyphs that must give no text for the page to be reported
/// [`PartialReason::Undecodable`]. One math symbol of an unknown font on a page of prose is not
/// a loss a reader notices; at 1% of the glyphs about one word in twenty is damaged, which a
/// search does notice (a word averages five letters and a space).
pub const LOSS_REPORTED: f32 = 0.01;

/// How much of a file Fonte could read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Report {
    /// Every page has text.
    Complete,
    /// Some pages have no text, or not all of it (listed, 1-based), and why.
    Partial {
        /// The pages concerned.
        pages: Vec<u32>,
        /// Why.
        reason: PartialReason,
    },
    /// Nothing usable.
    Rejected {
        /// Why.
        reason: RejectReason,
    },
}

/// Why some pages of a document have no text, or not all of it. The app words these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartialReason {
    /// The pages' content is damaged: nothing could be read.
    Damaged,
    /// The pages' content is damaged part way: the text before the damage is kept.
    PartlyDamaged,
    /// Only the first [`Limits::max_pages`] pages are read; these are the rest.
    PageLimit,
    /// The pages reached a per-page budget (operators, glyphs, content bytes): text cut short.
    TooComplex,
    /// The document reached [`Limits::max_text_chars`] (or the chunk cap): these pages are
    /// not indexed.
    TextLimit,
    /// The pages have no text layer (scanned?), while others have one.
    NoTextLayer,
    /// The pages show glyphs Fonte could not turn into text (at least [`LOSS_REPORTED`] of
    /// a page's glyphs), mostly for the reason `why`; over the pages listed, `lost` of the
    /// `shown` visible glyphs gave no text.
    Undecodable {
        /// Why most of the lost glyphs were lost.
        why: Loss,
        /// Visible glyphs shown on the pages listed.
        shown: u32,
        /// Those that gave no text.
        lost: u32,
    },
    /// A reason this version does not know (written by a newer one, or an old free-text
    /// reason in a stored library).
    #[serde(other)]
    Other,
}

/// What made a file unreadable as a PDF.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unreadable {
    /// Not a PDF at all: no `%PDF-` header in its first kilobyte, and it does not open.
    NotPdf,
    /// Its structure (cross-reference table, trailer, objects) is damaged beyond repair.
    #[default]
    Damaged,
    /// It opens but has no pages.
    NoPages,
    /// It opens but none of its pages could be read.
    NoPageReadable,
}

/// Why a file gave no text. The app words these.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectReason {
    /// Encrypted with a user password we do not have.
    NeedsPassword,
    /// Encrypted by a security handler other than the password one: `handler` is its name
    /// (Adobe.PubSec: for the holders of certificates, opened with their private keys; or a
    /// DRM plug-in's). No password opens it.
    OtherSecurityHandler {
        /// The handler's name, from the file's /Encrypt /Filter.
        handler: String,
    },
    /// Pages are images without a text layer.
    NoTextLayer,
    /// The pages show text, but none of it could be decoded (mostly for the reason `why`):
    /// the glyphs are there without a way to know their characters.
    Undecodable {
        /// Why most of the glyphs were lost.
        why: Loss,
        /// Visible glyphs shown in the file (all of them lost).
        shown: u32,
    },
    /// Not a readable PDF, for the typed `cause` the app words.
    Malformed {
        /// What made it unreadable.
        #[serde(default)]
        cause: Unreadable,
        /// The parser's own words, a technical detail (not translated).
        detail: String,
    },
    /// Larger than [`Limits::max_file_bytes`].
    TooLarge {
        /// The file's size.
        bytes: u64,
        /// The limit.
        max: u64,
    },
    /// The reader stopped on this file (in the browser: the parsing worker, which was
    /// restarted for the next file).
    ReaderStopped {
        /// How it stopped.
        why: Stopped,
    },
}

/// How a reader stopped on a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    /// It panicked (a defect of the parser, met on this file).
    Panicked {
        /// The panic message.
        message: String,
    },
    /// It ran past the time allowed per file.
    TimedOut {
        /// The limit, seconds.
        secs: u32,
    },
    /// It needed more memory than allowed per file.
    OutOfMemory {
        /// The limit, MiB.
        mib: u32,
    },
    /// It died without saying why.
    Crashed {
        /// What the runtime said.
        message: String,
    },
}
