//! Fonte's PDF reader: PDF bytes -> document metadata and the text of each physical page (with
//! its line boxes and page furniture), and a per-file report of what could not be read.
//!
//! The `pdf` crate parses the file (xref, objects, filters, decryption); it has no text API, so
//! the text layer is ours: [`font`] decodes character codes, [`interp`] places glyphs, [`layout`]
//! turns them into lines and paragraphs. A bad file never panics, hangs or eats memory without
//! bound: pages, operators and glyphs are capped and every page is isolated.
#![warn(missing_docs)]

mod accents;
mod actual_text;
mod bidi;
pub mod dates;
mod docenc;
mod extraction;
mod fields;
pub mod font;
mod furniture;
pub mod interp;
pub mod layout;
mod line_text;
pub mod margin;
mod matrix;
mod noise;
mod open_errors;
mod overdraw;
mod page;
mod placed;
mod report;
mod skewed;
mod tally;
pub mod text;
mod text_state;
pub use extraction::Extraction;
pub use font::Loss;
pub use layout::TextLine;
pub use report::{PartialReason, RejectReason, Report, Stopped, Unreadable, LOSS_REPORTED};
pub use tally::Tally;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Caps on what one file may cost. Each stops a class of hostile input listed in
/// docs/RELIABILITY.md; a file that reaches one is reported `partial` or `rejected`, never
/// read without bound.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes a file may have; a larger one is rejected before it is parsed.
    pub max_file_bytes: u64,
    /// Pages read at most; the rest is reported as not read.
    pub max_pages: u32,
    /// Operators parsed and interpreted per page (forms included).
    pub max_ops_per_page: usize,
    /// Glyphs placed per page.
    pub max_glyphs_per_page: usize,
    /// Decoded content bytes per page: its /Contents parts and every form it draws, each time
    /// it draws one (the same 64 MiB stream listed 100 times is 6.4 GB of content).
    pub max_content_bytes_per_page: usize,
    /// Characters of text per document; pages past it are not read.
    pub max_text_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_file_bytes: 200_000_000,
            max_pages: 10_000,
            max_ops_per_page: 2_000_000,
            max_glyphs_per_page: 200_000,
            max_content_bytes_per_page: 64 << 20,
            // About 8,000 pages of dense text; a 200 MB file of text would take hours to embed.
            max_text_chars: 20_000_000,
        }
    }
}

/// The text of one physical page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageText {
    /// 1-based physical page number.
    pub number: u32,
    /// Reading-order text; paragraphs separated by a blank line.
    pub text: String,
    /// Char ranges of lines that are not body text: running headers and footers (lines at the
    /// top or bottom of the page that repeat, numbers aside, on most pages or most pages of
    /// one side: [`furniture`]) and table-of-contents or index entries (dot leaders and a page number: [`noise`]). Left in the text,
    /// skipped by the chunker.
    #[serde(default)]
    pub furniture: Vec<(usize, usize)>,
    /// Its lines, in text order, with where each is drawn.
    #[serde(default)]
    pub lines: Vec<TextLine>,
}

impl PageText {
    /// Boxes (user space: left, bottom, right, top) covering characters `start..end`.
    pub fn marks(&self, start: usize, end: usize) -> Vec<[f32; 4]> {
        layout::marks(&self.text, &self.lines, start, end)
    }
}

/// What ingestion gets from a PDF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extracted {
    /// Lower-case hex SHA-256 of the bytes: the document id.
    pub id: String,
    /// /Title from the document information, if present.
    pub title: Option<String>,
    /// Physical pages in the file.
    pub page_count: u32,
    /// The dates the file gives for itself, each with where it came from: its document
    /// information, its XMP metadata, its first two pages' text.
    #[serde(default)]
    pub dates: Vec<dates::Dated>,
    /// Text of each page read (page_count entries unless capped).
    pub pages: Vec<PageText>,
    /// How complete the text is.
    pub report: Report,
}

/// SHA-256 of `bytes` in hex: a document's id.
pub fn document_id(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Extracts the text of every page. `password` is tried after the empty user password.
pub fn extract(bytes: &[u8], password: Option<&[u8]>, limits: Limits) -> Extracted {
    match Extraction::open(bytes, password, limits) {
        Ok(mut x) => {
            while x.step() {}
            x.finish()
        }
        Err(rejected) => *rejected,
    }
}
