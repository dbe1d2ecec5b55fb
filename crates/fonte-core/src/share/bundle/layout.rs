//! A bundle's layout: where each section lies, and the checks of the sections found in a
//! window of the file (the whole file for `read`, or the ranges a hosted reader
//! fetched).

use std::ops::Range;

use sha2::{Digest, Sha256};

use super::read::{
    check_len, check_manifest, decode, entries, inconsistent, one, open, Bundle, Entry, Result,
};
use super::{limits, Accepted, BundleError, Kind, Manifest, ManifestDocument};
use crate::pdf::PageText;
use crate::search::corpus::{ChunkRecord, DocumentMeta};
use crate::store::StoredDocument;

/// A bundle's table of sections, read from its header alone: where each section lies, so a
/// reader of a hosted bundle fetches what it needs by range requests (docs/BUNDLE.md,
/// "Hosted bundles").
pub struct Layout {
    entries: Vec<Entry>,
}

impl Layout {
    /// The table of a bundle of `total` bytes whose first bytes are `head` (at least
    /// [`head_len`] of them), checked.
    pub fn parse(head: &[u8], total: u64) -> Result<Self> {
        Ok(Self {
            entries: entries(head, total)?,
        })
    }

    /// The bytes that hold everything but the PDFs (manifest, chunks, vectors, pages): what
    /// a reader needs to search.
    pub fn index_range(&self) -> Range<u64> {
        let mut sections = self.entries.iter().filter(|e| e.kind != Kind::Pdf);
        let first = sections
            .next()
            .map_or(0..0, |e| e.offset..e.offset + e.stored_len);
        sections.fold(first, |r, e| {
            r.start.min(e.offset)..r.end.max(e.offset + e.stored_len)
        })
    }

    /// Where document `doc`'s PDF lies, if the bundle has it.
    pub fn pdf_range(&self, doc: usize) -> Option<Range<u64>> {
        self.entries
            .iter()
            .find(|e| e.kind == Kind::Pdf && e.doc as usize == doc)
            .map(|e| e.offset..e.offset + e.stored_len)
    }

    /// Document `doc`'s PDF from `bytes`, the bytes of its [`Layout::pdf_range`], checked
    /// against its section's checksum and `m`'s id (its SHA-256) and size (`m` is the
    /// document as the validated manifest lists it).
    pub fn open_pdf(&self, m: &ManifestDocument, doc: usize, bytes: &[u8]) -> Result<Vec<u8>> {
        let e = self
            .entries
            .iter()
            .find(|e| e.kind == Kind::Pdf && e.doc as usize == doc)
            .ok_or_else(|| inconsistent(format!("no PDF for document {doc}")))?;
        let pdf = open(bytes, e.offset, e)?;
        check_pdf(m, &pdf)?;
        Ok(pdf)
    }

    /// Validates and decodes the sections found in `window`, the bytes of the file from
    /// offset `at` (the whole file, or at least [`Layout::index_range`]). A PDF outside the
    /// window is left empty: a hosted bundle's PDFs are fetched when first shown. A bundle of
    /// a model not in `accept` (when it is not empty) is refused from its manifest, before
    /// anything else is inflated.
    pub fn assemble(&self, at: u64, window: &[u8], accept: &[Accepted]) -> Result<Bundle> {
        let entries = &self.entries;
        let within =
            |e: &Entry| e.offset >= at && e.offset + e.stored_len <= at + window.len() as u64;
        let manifest: Manifest =
            serde_json::from_slice(&open(window, at, one(entries, Kind::Manifest)?)?).map_err(
                |e| BundleError::Malformed {
                    section: "manifest".into(),
                    detail: e.to_string(),
                },
            )?;
        check_manifest(&manifest, accept)?;
        let n_docs = manifest.documents.len();
        // Sizes are checked against the manifest before anything large is inflated.
        // f32 (1.0) or half floats (1.1), exactly one of the two.
        let f32s = entries.iter().filter(|e| e.kind == Kind::Vectors).count();
        let vectors_entry = one(
            entries,
            if f32s > 0 {
                Kind::Vectors
            } else {
                Kind::VectorsF16
            },
        )?;
        if f32s > 0 && entries.iter().any(|e| e.kind == Kind::VectorsF16) {
            return Err(inconsistent("two vectors sections"));
        }
        let width = if vectors_entry.kind == Kind::Vectors {
            4
        } else {
            2
        };
        let want = (manifest.chunks as u64) * (manifest.dim as u64) * width;
        if vectors_entry.raw_len != want {
            return Err(inconsistent(format!(
                "{} vector bytes for {} chunks of dimension {}",
                vectors_entry.raw_len, manifest.chunks, manifest.dim
            )));
        }
        let chunks: Vec<ChunkRecord> =
            decode(&open(window, at, one(entries, Kind::Chunks)?)?, "chunks")?;
        if chunks.len() != manifest.chunks {
            return Err(inconsistent(format!(
                "{} chunks, the manifest says {}",
                chunks.len(),
                manifest.chunks
            )));
        }
        let pages: Vec<Vec<PageText>> =
            decode(&open(window, at, one(entries, Kind::Pages)?)?, "pages")?;
        if pages.len() != n_docs {
            return Err(inconsistent(format!(
                "page texts for {} documents, the manifest lists {n_docs}",
                pages.len()
            )));
        }
        let raw = open(window, at, vectors_entry)?;
        let vectors = if width == 4 {
            crate::store::vectors_from_bytes(&raw, manifest.dim).map_err(|e| {
                BundleError::Malformed {
                    section: "vectors".into(),
                    detail: e.to_string(),
                }
            })?
        } else {
            // The length was checked against chunks × dim above.
            raw.chunks_exact(2 * manifest.dim)
                .map(|v| {
                    v.chunks_exact(2)
                        .map(|h| half::f16::from_le_bytes([h[0], h[1]]).to_f32())
                        .collect()
                })
                .collect()
        };
        if vectors.iter().flatten().any(|x| !x.is_finite()) {
            return Err(inconsistent("a vector holds a value that is not a number"));
        }
        let mut pdfs: Vec<Option<Vec<u8>>> = vec![None; n_docs];
        let mut remote = vec![false; n_docs];
        for e in entries.iter().filter(|e| e.kind == Kind::Pdf) {
            let slot = pdfs.get_mut(e.doc as usize).ok_or_else(|| {
                inconsistent(format!("a PDF for document {}, of {n_docs}", e.doc))
            })?;
            if slot.is_some() {
                return Err(inconsistent(format!("two PDFs for document {}", e.doc)));
            }
            if within(e) {
                *slot = Some(open(window, at, e)?);
            } else {
                remote[e.doc as usize] = true;
                *slot = Some(Vec::new());
            }
        }
        let mut documents: Vec<StoredDocument> = Vec::with_capacity(n_docs);
        let mut at = 0;
        for (i, m) in manifest.documents.iter().enumerate() {
            let mine = chunks
                .get(at..at + m.chunks)
                .ok_or_else(|| inconsistent("chunks out of document order"))?;
            for c in mine {
                if c.doc as usize != i {
                    return Err(inconsistent(format!(
                        "a chunk of document {} where document {i}'s are",
                        c.doc
                    )));
                }
                if c.chunk.page == 0
                    || c.chunk.page > m.pages
                    || c.chunk.char_start > c.chunk.char_end
                {
                    return Err(inconsistent(format!(
                        "a chunk of {:?} points at page {} of {}",
                        m.name, c.chunk.page, m.pages
                    )));
                }
                check_len("a chunk text", &c.chunk.text, limits::CHUNK_TEXT)?;
                if c.chunk.heading_path.len() > limits::HEADINGS {
                    return Err(BundleError::TooLarge {
                        what: format!("{} headings above a chunk", c.chunk.heading_path.len()),
                        limit: limits::HEADINGS as u64,
                    });
                }
                for h in &c.chunk.heading_path {
                    check_len("a heading", h, limits::NAME)?;
                }
                // A citation opens the page at the chunk's range: it must lie in the page's
                // text (when the bundle carries it).
                let Some(page) = pages[i].iter().find(|p| p.number == c.chunk.page) else {
                    continue;
                };
                if c.chunk.char_end > page.text.chars().count() {
                    return Err(inconsistent(format!(
                        "a chunk of {:?} ends past the text of its page {}",
                        m.name, c.chunk.page
                    )));
                }
                // A chunk's text is its page's text at its range (less margin line numbers,
                // so: in order, within it), as the page shows it when the citation opens.
                let range = page
                    .text
                    .chars()
                    .skip(c.chunk.char_start)
                    .take(c.chunk.char_end - c.chunk.char_start);
                if !is_subsequence(c.chunk.text.chars(), range) {
                    return Err(inconsistent(format!(
                        "a chunk of {:?} is not the text of its page {} at its range",
                        m.name, c.chunk.page
                    )));
                }
            }
            for p in &pages[i] {
                let len = p.text.chars().count();
                if p.number == 0
                    || p.number > m.pages
                    || p.lines
                        .iter()
                        .any(|l| l.start > l.end || l.end as usize > len)
                {
                    return Err(inconsistent(format!(
                        "a page text of {:?} does not fit its page {}",
                        m.name, p.number
                    )));
                }
            }
            let pdf = pdfs[i].take().unwrap_or_default();
            if manifest.pdfs && pdf.is_empty() && !remote[i] {
                return Err(inconsistent(format!("the PDF of {:?} is missing", m.name)));
            }
            if !pdf.is_empty() {
                check_pdf(m, &pdf)?;
            }
            documents.push(StoredDocument {
                meta: DocumentMeta {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    title: m.title.clone(),
                    pages: m.pages,
                    report: m.report.clone(),
                    build: None,
                    about: m.about.clone(),
                },
                pdf,
                chunks: mine.iter().map(|c| c.chunk.clone()).collect(),
                vectors: vectors[at..at + m.chunks].to_vec(),
                pages: pages[i].clone(),
            });
            at += m.chunks;
        }
        Ok(Bundle {
            manifest,
            documents,
        })
    }
}

/// Whether `part` is `whole` with some characters left out (in order).
fn is_subsequence(part: impl Iterator<Item = char>, mut whole: impl Iterator<Item = char>) -> bool {
    part.into_iter().all(|c| whole.any(|w| w == c))
}

/// That `pdf` is the file the manifest names (its size and SHA-256).
fn check_pdf(m: &ManifestDocument, pdf: &[u8]) -> Result<()> {
    if pdf.len() as u64 != m.size || hex::encode(Sha256::digest(pdf)) != m.id {
        return Err(inconsistent(format!(
            "the PDF of {:?} is not the file the manifest names",
            m.name
        )));
    }
    Ok(())
}

/// Reads and validates a whole bundle of any model: its layout, then every section in it.
pub fn read(bytes: &[u8]) -> Result<Bundle> {
    read_accepting(bytes, &[])
}

/// [`read`], refusing a bundle of a model not in `accept` before inflating more than its
/// manifest.
pub fn read_accepting(bytes: &[u8], accept: &[Accepted]) -> Result<Bundle> {
    Layout::parse(bytes, bytes.len() as u64)?.assemble(0, bytes, accept)
}
