//! PDF bytes -> document metadata and the text of each physical page, with a per-file report.
//!
//! The `pdf` crate parses the file (xref, objects, filters, decryption); it has no text API, so
//! the text layer is ours: [`font`] decodes character codes, [`interp`] places glyphs, [`layout`]
//! turns them into lines and paragraphs. A bad file never panics, hangs or eats memory without
//! bound: pages, operators and glyphs are capped and every page is isolated.

mod docenc;
pub mod font;
pub mod interp;
pub mod layout;
pub mod margin;
mod noise;
pub use font::Loss;
pub use interp::Tally;
pub use layout::TextLine;

use std::panic::{catch_unwind, AssertUnwindSafe};

use pdf::content::FormXObject;
use pdf::file::FileOptions;
use pdf::object::{Object, Page, ParseOptions, RcRef, Rectangle, Ref, Resolve};
use pdf::primitive::Primitive;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use interp::{Budget, Interpreter, M0};

#[cfg(test)]
mod tests {
    use super::*;

    fn page(number: u32, text: &str) -> PageText {
        PageText {
            number,
            text: text.into(),
            furniture: Vec::new(),
            lines: Vec::new(),
        }
    }

    #[test]
    fn running_headers_and_page_numbers_are_marked_not_removed() {
        let mut pages: Vec<PageText> = (1..=4)
            .map(|n| {
                let w = ["alpha", "beta", "gamma", "delta"][n as usize - 1];
                page(
                    n,
                    &format!("Chapter 1. Definições\nBody text {w} differs.\nMore {w}.\n{n}"),
                )
            })
            .collect();
        mark_furniture(&mut pages);
        let p = &pages[1];
        let marked: Vec<&str> = p
            .furniture
            .iter()
            .map(|&(a, b)| crate::chunk::slice_chars(&p.text, a, b))
            .collect();
        assert_eq!(marked, ["Chapter 1. Definições", "2"]);
        assert!(
            p.text.starts_with("Chapter 1. Definições"),
            "left in the text"
        );
    }
}

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

/// Why a file gave no text. The app words these.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectReason {
    /// Encrypted with a user password we do not have.
    NeedsPassword,
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
    /// Not a readable PDF.
    Malformed {
        /// What the parser said (its own words, not translated).
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

/// The text of one physical page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageText {
    /// 1-based physical page number.
    pub number: u32,
    /// Reading-order text; paragraphs separated by a blank line.
    pub text: String,
    /// Char ranges of lines that are not body text: running headers and footers (lines at the
    /// top or bottom of the page that repeat, numbers aside, on most pages) and table-of-
    /// contents or index entries (dot leaders and a page number: [`noise`]). Left in the text,
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
        layout::marks(&self.lines, start, end)
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
    /// Text of each page read (page_count entries unless capped).
    pub pages: Vec<PageText>,
    /// How complete the text is.
    pub report: Report,
}

/// SHA-256 of `bytes` in hex: a document's id.
pub fn document_id(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The root cause of a `pdf` crate error, without its source-location breadcrumbs.
fn root_cause(msg: &str) -> String {
    let last = msg.rsplit("caused by").next().unwrap_or(msg).trim();
    let last = match last.strip_prefix("Try at ") {
        Some(rest) => rest.split_once(": ").map_or(rest, |x| x.1),
        None => last,
    };
    let line = last
        .lines()
        .next()
        .unwrap_or(last)
        .trim()
        .trim_end_matches(':')
        .trim();
    if line.is_empty() {
        "unreadable structure".into()
    } else {
        line.chars().take(200).collect()
    }
}

fn looks_like_password_error(msg: &str) -> bool {
    let m = msg.to_lowercase();
    m.contains("password") || m.contains("decrypt") || m.contains("encrypt")
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

/// An extraction in progress, one page per [`step`](Self::step): the browser app reads a long
/// PDF in slices and lets the page paint in between.
pub struct Extraction {
    id: String,
    file: pdf::file::CachedFile<Vec<u8>>,
    title: Option<String>,
    page_count: u32,
    limits: Limits,
    next: u32,
    pages: Vec<PageText>,
    empty: Vec<u32>,
    scanned: u32,
    /// Pages where at least [`LOSS_REPORTED`] of the glyphs gave no text, with their tallies.
    undecodable: Vec<(u32, Tally)>,
    /// Pages not read (in full): damaged content.
    failed: Vec<u32>,
    /// How many of `failed` gave some text before the damage.
    partly_read: u32,
    truncated: Vec<u32>,
    /// Characters of text read so far, and the first page not read for [`Limits::max_text_chars`].
    chars: usize,
    text_capped_at: Option<u32>,
}

/// Pages in the file: its /Count, unless the page tree holds fewer pages than it claims (a
/// hostile `/Count 4000000000` would otherwise be 4 billion pages to report on). Leaves are
/// counted up to one past `max_pages`, so the walk costs no more than reading the pages would.
fn page_count(file: &pdf::file::CachedFile<Vec<u8>>, max_pages: u32) -> u32 {
    use pdf::object::PagesNode;
    fn walk(node: &PagesNode, resolve: &impl Resolve, depth: usize, n: &mut u32, cap: u32) {
        let PagesNode::Tree(tree) = node else {
            *n += 1;
            return;
        };
        if depth == 0 {
            return;
        }
        for kid in &tree.kids {
            if *n >= cap {
                return;
            }
            if let Ok(node) = resolve.get(*kid) {
                walk(&node, resolve, depth - 1, n, cap);
            }
        }
    }
    let claimed = file.num_pages();
    let cap = max_pages.saturating_add(1);
    let mut counted = 0;
    let resolve = file.resolver();
    // The crate reads page trees 16 levels deep at most.
    let root = PagesNode::Tree((*file.get_root().pages).clone());
    let walked = catch_unwind(AssertUnwindSafe(|| {
        walk(&root, &resolve, 16, &mut counted, cap)
    }));
    if walked.is_err() || counted >= cap {
        // Past the limit, the claim stands (bounded by the objects a file may hold).
        return claimed.min(pdf::backend::MAX_ID);
    }
    claimed.min(counted)
}

impl Extraction {
    /// Opens the file (decrypting with the empty password, then `password`); a file that
    /// cannot be opened is returned as its rejected [`Extracted`].
    pub fn open(
        bytes: &[u8],
        password: Option<&[u8]>,
        limits: Limits,
    ) -> Result<Self, Box<Extracted>> {
        let id = document_id(bytes);
        let rejected = |reason| Extracted {
            id: id.clone(),
            title: None,
            page_count: 0,
            pages: Vec::new(),
            report: Report::Rejected { reason },
        };
        if bytes.len() as u64 > limits.max_file_bytes {
            return Err(Box::new(rejected(RejectReason::TooLarge {
                bytes: bytes.len() as u64,
                max: limits.max_file_bytes,
            })));
        }
        let load = |pw: &[u8]| {
            catch_unwind(AssertUnwindSafe(|| {
                FileOptions::cached()
                    .parse_options(ParseOptions::tolerant())
                    .password(pw)
                    .load(bytes.to_vec())
            }))
            .unwrap_or_else(|_| {
                Err(pdf::error::PdfError::Other {
                    msg: "parser panicked".into(),
                })
            })
        };
        let file = match load(b"") {
            Ok(f) => f,
            Err(e) => match password {
                Some(pw) => match load(pw) {
                    Ok(f) => f,
                    Err(e2) if looks_like_password_error(&e2.to_string()) => {
                        return Err(Box::new(rejected(RejectReason::NeedsPassword)))
                    }
                    Err(e2) => {
                        return Err(Box::new(rejected(RejectReason::Malformed {
                            detail: root_cause(&e2.to_string()),
                        })))
                    }
                },
                None if looks_like_password_error(&e.to_string()) => {
                    return Err(Box::new(rejected(RejectReason::NeedsPassword)))
                }
                None => {
                    return Err(Box::new(rejected(RejectReason::Malformed {
                        detail: root_cause(&e.to_string()),
                    })))
                }
            },
        };

        let title = file
            .trailer
            .info_dict
            .as_ref()
            .and_then(|info| info.title.as_ref())
            .map(|t| layout::clean(&docenc::text_string(t.as_bytes())))
            .filter(|t| !t.trim().is_empty());
        let page_count = page_count(&file, limits.max_pages);
        Ok(Self {
            id,
            file,
            title,
            page_count,
            limits,
            next: 0,
            pages: Vec::new(),
            empty: Vec::new(),
            scanned: 0,
            undecodable: Vec::new(),
            failed: Vec::new(),
            partly_read: 0,
            truncated: Vec::new(),
            chars: 0,
            text_capped_at: None,
        })
    }

    /// Physical pages in the file.
    pub fn page_count(&self) -> u32 {
        self.page_count
    }

    /// Pages read so far.
    pub fn pages_read(&self) -> u32 {
        self.next
    }

    /// Reads the next page; false when every page (up to the limit) has been read.
    pub fn step(&mut self) -> bool {
        let n = self.next;
        if n >= self.page_count.min(self.limits.max_pages) || self.text_capped_at.is_some() {
            return false;
        }
        self.next += 1;
        let number = n + 1;
        let (file, limits) = (&self.file, self.limits);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let resolver = file.resolver();
            let page = file.get_page(n).map_err(|e| e.to_string())?;
            let form_resources = file.get_root().forms.as_ref().and_then(|f| f.dr.as_deref());
            Ok::<_, String>(page_text(
                &page,
                Some(page.get_ref()),
                form_resources,
                &resolver,
                limits,
            ))
        }));
        match result {
            Ok(Ok(PageRead {
                text,
                lines,
                saw_image,
                truncated,
                damaged,
                tally,
            })) => {
                let lost = tally.lost_total();
                // A page whose glyphs did not decode is not a page without a text layer.
                if lost > 0 && lost as f32 >= LOSS_REPORTED * tally.shown as f32 {
                    self.undecodable.push((number, tally));
                }
                if damaged {
                    // Reported with the pages that could not be read at all.
                    self.failed.push(number);
                    if !text.trim().is_empty() {
                        self.partly_read += 1;
                    }
                } else if text.trim().is_empty() && lost == 0 {
                    self.empty.push(number);
                    if saw_image {
                        self.scanned += 1;
                    }
                }
                if truncated {
                    self.truncated.push(number);
                }
                self.chars += text.chars().count();
                if self.chars > self.limits.max_text_chars {
                    // This page and the rest are not indexed.
                    self.text_capped_at = Some(number);
                    return false;
                }
                self.pages.push(PageText {
                    number,
                    text,
                    furniture: Vec::new(),
                    lines,
                });
            }
            Ok(Err(_)) | Err(_) => {
                self.failed.push(number);
                self.pages.push(PageText {
                    number,
                    text: String::new(),
                    furniture: Vec::new(),
                    lines: Vec::new(),
                });
            }
        }
        true
    }

    /// The text of the pages read, with the report.
    pub fn finish(self) -> Extracted {
        let Self {
            id,
            title,
            page_count,
            limits,
            mut pages,
            empty,
            scanned,
            undecodable,
            failed,
            partly_read,
            truncated,
            text_capped_at,
            ..
        } = self;
        mark_furniture(&mut pages);
        mark_leaders(&mut pages);
        let report = if page_count == 0 {
            Report::Rejected {
                reason: RejectReason::Malformed {
                    detail: "the file has no pages".into(),
                },
            }
        } else if empty.len() as u32 == page_count.min(limits.max_pages) && failed.is_empty() {
            Report::Rejected {
                reason: RejectReason::NoTextLayer,
            }
        } else if failed.is_empty() && pages.iter().all(|p| p.text.trim().is_empty()) {
            // Every page is blank or lost its glyphs: text is there, Fonte cannot decode it.
            let mut all = Tally::default();
            undecodable.iter().for_each(|(_, t)| all.add(t));
            Report::Rejected {
                reason: RejectReason::Undecodable {
                    why: all.main_loss().unwrap_or(Loss::NoUnicode),
                    shown: all.shown,
                },
            }
        } else if failed.len() as u32 == page_count.min(limits.max_pages) && partly_read == 0 {
            Report::Rejected {
                reason: RejectReason::Malformed {
                    detail: "no page could be read".into(),
                },
            }
        } else if !failed.is_empty() {
            Report::Partial {
                pages: failed,
                reason: if partly_read > 0 {
                    PartialReason::PartlyDamaged
                } else {
                    PartialReason::Damaged
                },
            }
        } else if let Some(first) = text_capped_at {
            Report::Partial {
                pages: (first..=page_count.min(limits.max_pages)).collect(),
                reason: PartialReason::TextLimit,
            }
        } else if page_count > limits.max_pages {
            Report::Partial {
                pages: (limits.max_pages + 1..=page_count).collect(),
                reason: PartialReason::PageLimit,
            }
        } else if !truncated.is_empty() {
            Report::Partial {
                pages: truncated,
                reason: PartialReason::TooComplex,
            }
        } else if !undecodable.is_empty() {
            let mut all = Tally::default();
            undecodable.iter().for_each(|(_, t)| all.add(t));
            Report::Partial {
                pages: undecodable.iter().map(|(n, _)| *n).collect(),
                reason: PartialReason::Undecodable {
                    why: all.main_loss().unwrap_or(Loss::NoUnicode),
                    shown: all.shown,
                    lost: all.lost_total(),
                },
            }
        } else if scanned > 0 {
            Report::Partial {
                pages: empty,
                reason: PartialReason::NoTextLayer,
            }
        } else {
            Report::Complete
        };
        Extracted {
            id,
            title,
            page_count,
            pages,
            report,
        }
    }
}

/// The normal appearance stream of each visible annotation of the page, with its /Rect.
///
/// Read from the raw dictionaries: the crate's `Annot` cannot load an appearance stream that is
/// an indirect object (it asks `RcRef` to parse a stream that is no longer a reference), which is
/// how nearly every form field stores it.
fn annotation_forms(
    page_ref: pdf::object::PlainRef,
    resolve: &impl Resolve,
) -> Vec<(RcRef<FormXObject>, Rectangle)> {
    const HIDDEN: i32 = 2;
    let mut out = Vec::new();
    let Ok(page) = resolve
        .resolve(page_ref)
        .and_then(Primitive::into_dictionary)
    else {
        return out;
    };
    let Some(annots) = page
        .get("Annots")
        .cloned()
        .and_then(|a| a.resolve(resolve).ok())
        .and_then(|a| a.into_array().ok())
    else {
        return out;
    };
    for annot in annots.into_iter().take(10_000) {
        let Ok(annot) = annot.resolve(resolve).and_then(Primitive::into_dictionary) else {
            continue;
        };
        if annot
            .get("F")
            .and_then(|f| f.as_integer().ok())
            .is_some_and(|f| f & HIDDEN != 0)
        {
            continue;
        }
        let Some(rect) = annot
            .get("Rect")
            .cloned()
            .and_then(|r| Rectangle::from_primitive(r, resolve).ok())
        else {
            continue;
        };
        let Some(normal) = annot
            .get("AP")
            .cloned()
            .and_then(|ap| ap.resolve(resolve).ok())
            .and_then(|ap| ap.into_dictionary().ok())
            .and_then(|mut ap| ap.remove("N"))
        else {
            continue;
        };
        // /N is the stream itself, or a dictionary of states (checkboxes) chosen by /AS.
        let stream_ref = match normal {
            Primitive::Reference(r) => match resolve.resolve(r) {
                Ok(Primitive::Dictionary(states)) => pick_state(&annot, &states),
                Ok(_) => Some(r),
                Err(_) => None,
            },
            Primitive::Dictionary(states) => pick_state(&annot, &states),
            _ => None,
        };
        if let Some(r) = stream_ref {
            if let Ok(form) = resolve.get(Ref::<FormXObject>::new(r)) {
                out.push((form, rect));
            }
        }
    }
    out
}

fn pick_state(
    annot: &pdf::primitive::Dictionary,
    states: &pdf::primitive::Dictionary,
) -> Option<pdf::object::PlainRef> {
    let state = annot.get("AS")?.as_name().ok()?;
    match states.get(state)? {
        Primitive::Reference(r) => Some(*r),
        _ => None,
    }
}

/// Lines looked at for running headers and footers, from each end of a page.
const EDGE_LINES: usize = 3;

/// A line's shape for comparing across pages: folded, digits and roman page numbers blanked.
fn line_key(line: &str) -> String {
    let w = crate::text::words(line);
    let roman = |s: &str| !s.is_empty() && s.chars().all(|c| "ivxlc".contains(c));
    w.iter()
        .map(|x| {
            if x.chars().all(|c| c.is_ascii_digit()) || roman(x) {
                "#"
            } else {
                x.as_str()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Finds lines among the first and last [`EDGE_LINES`] of each page whose shape repeats on at
/// least half the pages (and three of them), and records their char ranges.
fn mark_furniture(pages: &mut [PageText]) {
    let with_text = pages.iter().filter(|p| !p.text.trim().is_empty()).count();
    if with_text < 3 {
        return;
    }
    let edges = |text: &str| -> Vec<(usize, usize, String)> {
        let mut lines = Vec::new();
        let mut offset = 0;
        for line in text.split('\n') {
            let start = text[..offset].chars().count();
            lines.push((start, start + line.chars().count(), line.to_string()));
            offset += line.len() + 1;
        }
        let lines: Vec<_> = lines
            .into_iter()
            .filter(|l| !l.2.trim().is_empty())
            .collect();
        let n = lines.len();
        lines
            .into_iter()
            .enumerate()
            .filter(|(i, _)| *i < EDGE_LINES || *i + EDGE_LINES >= n)
            .map(|(_, l)| l)
            .collect()
    };
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for p in pages.iter() {
        let keys: std::collections::HashSet<String> =
            edges(&p.text).into_iter().map(|l| line_key(&l.2)).collect();
        for k in keys {
            *counts.entry(k).or_default() += 1;
        }
    }
    let threshold = (with_text / 2).max(3);
    for p in pages.iter_mut() {
        p.furniture = edges(&p.text)
            .into_iter()
            .filter(|l| counts.get(&line_key(&l.2)).is_some_and(|&c| c >= threshold))
            .map(|l| (l.0, l.1))
            .collect();
    }
}

/// Marks every page's table-of-contents and index entries (with leaders, or on an index page)
/// as furniture ([`noise`]), in text order with the running headers and footers.
fn mark_leaders(pages: &mut [PageText]) {
    for p in pages.iter_mut() {
        let mut all = std::mem::take(&mut p.furniture);
        all.extend(noise::leader_lines(&p.text));
        all.extend(noise::index_lines(&p.text));
        all.sort_unstable();
        all.dedup();
        p.furniture = all;
    }
}

/// What reading one page gave.
struct PageRead {
    text: String,
    lines: Vec<TextLine>,
    /// Whether it drew images (a page with images and no text is probably a scan).
    saw_image: bool,
    /// Whether a budget cut it short.
    truncated: bool,
    /// Whether part of its content could not be decoded or parsed: the text is what came
    /// before the damage, and the page is reported as not read in full.
    damaged: bool,
    /// Glyphs shown, and those that gave no text.
    tally: Tally,
}

/// Reads one page. `form_resources`: the AcroForm's default resources, where field
/// appearances find their fonts.
fn page_text(
    page: &Page,
    page_ref: Option<pdf::object::PlainRef>,
    form_resources: Option<&pdf::object::Resources>,
    resolve: &impl Resolve,
    limits: Limits,
) -> PageRead {
    let mut damaged = false;
    let mut truncated = false;
    // A page without /Contents is blank, which is not damage.
    let mut data = Vec::new();
    // The crate joins the parts of a multi-part content stream without a separator, so `Q`
    // at the end of one part and `BT` at the start of the next become `QBT` and all text after
    // is lost. Join them with a newline ourselves.
    for part in page.contents.iter().flat_map(|c| &c.parts) {
        match part.data(resolve) {
            Ok(bytes) if data.len() + bytes.len() < limits.max_content_bytes_per_page => {
                data.extend_from_slice(&bytes);
                data.push(b'\n');
            }
            Ok(_) => {
                truncated = true;
                break;
            }
            Err(_) => damaged = true,
        }
    }
    let (ops, error, cut) =
        pdf::content::parse_ops_limited(&data, resolve, limits.max_ops_per_page);
    damaged |= error.is_some();
    truncated |= cut;
    let content_left = limits.max_content_bytes_per_page.saturating_sub(data.len());
    drop(data);
    let resources = match page.resources() {
        Ok(r) => Some(&**r),
        Err(_) => {
            damaged |= !ops.is_empty();
            None
        }
    };
    let mut interp = Interpreter::new(
        resolve,
        Budget {
            ops: limits.max_ops_per_page,
            glyphs: limits.max_glyphs_per_page,
            content_bytes: content_left,
        },
    );
    let mut glyphs = Vec::new();
    interp.run(&ops, resources, M0::IDENTITY, &mut glyphs, 0);
    // Form field values and free-text notes live in annotation appearance streams, which
    // viewers (and pdftotext) draw over the page.
    if let Some(page_ref) = page_ref {
        for (form, rect) in annotation_forms(page_ref, resolve) {
            let Some(parsed) = interp.form(form.get_ref().get_inner(), &form) else {
                continue;
            };
            damaged |= parsed.1;
            let dict = form.dict();
            let ctm = interp::annotation_matrix(dict.matrix.as_ref(), &dict.bbox, &rect);
            let res = dict.resources.as_deref().or(form_resources).or(resources);
            interp.run(&parsed.0, res, ctm, &mut glyphs, 1);
        }
    }
    // Text outside the crop box is not shown by viewers.
    if let Ok(b) = page.crop_box().or_else(|_| page.media_box()) {
        let (x0, x1) = (b.left.min(b.right) - 2.0, b.left.max(b.right) + 2.0);
        let (y0, y1) = (b.bottom.min(b.top) - 2.0, b.bottom.max(b.top) + 2.0);
        glyphs.retain(|g| g.x >= x0 && g.x <= x1 && g.y >= y0 && g.y <= y1);
    }
    let (text, lines) = layout::lay_out(glyphs);
    PageRead {
        text,
        lines,
        saw_image: interp.saw_image,
        truncated: truncated || interp.truncated,
        damaged: damaged || interp.damaged,
        tally: interp.tally,
    }
}
