//! Reading a bundle: every check before anything is returned (docs/BUNDLE.md, "Validation").

use std::collections::HashSet;
use std::io::Read;
use std::ops::Range;

use flate2::read::DeflateDecoder;
use sha2::{Digest, Sha256};

use super::{
    limits, BundleError, Kind, Manifest, ManifestDocument, ENTRY, HEAD, MAGIC, MAJOR, MINOR,
};
use crate::corpus::{BuildInfo, ChunkRecord, DocumentMeta};
use crate::pdf::PageText;
use crate::store::StoredDocument;

type Result<T> = std::result::Result<T, BundleError>;

/// A validated bundle: its manifest and its documents, ready to store.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    /// The manifest.
    pub manifest: Manifest,
    /// The documents (with empty PDFs when the bundle has none).
    pub documents: Vec<StoredDocument>,
}

impl Bundle {
    /// What the vectors were built with.
    pub fn info(&self) -> BuildInfo {
        BuildInfo {
            model_id: self.manifest.model_id.clone(),
            dim: self.manifest.dim,
            chunk_params: self.manifest.chunk_params,
        }
    }
}

struct Entry {
    kind: Kind,
    doc: u32,
    deflate: bool,
    offset: u64,
    stored_len: u64,
    raw_len: u64,
    sum: [u8; 32],
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn inconsistent(what: impl Into<String>) -> BundleError {
    BundleError::Inconsistent(what.into())
}

/// Bytes of the header (fixed part, section table, its checksum) of a bundle that begins
/// with `prefix` (at least its first 16 bytes): what a reader fetches first.
pub fn head_len(prefix: &[u8]) -> Result<u64> {
    if prefix.len() < MAGIC.len() || &prefix[..MAGIC.len()] != MAGIC {
        return Err(BundleError::NotABundle);
    }
    if prefix.len() < HEAD {
        return Err(BundleError::Truncated {
            what: "header".into(),
        });
    }
    let count = (u32_at(prefix, 12) as usize).min(limits::DOCUMENTS + 9);
    Ok((HEAD + ENTRY * count + 32) as u64)
}

/// The table of sections of a bundle of `total` bytes whose header is `bytes`, checked:
/// magic, version, bounds, the header's checksum.
fn entries(bytes: &[u8], total: u64) -> Result<Vec<Entry>> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(BundleError::NotABundle);
    }
    if bytes.len() < HEAD {
        return Err(BundleError::Truncated {
            what: "header".into(),
        });
    }
    let major = u16::from_le_bytes([bytes[8], bytes[9]]);
    let minor = u16::from_le_bytes([bytes[10], bytes[11]]);
    if major != MAJOR {
        return Err(BundleError::Version { major, minor });
    }
    let count = u32_at(bytes, 12) as usize;
    let most = limits::DOCUMENTS + 8;
    if count > most {
        return Err(BundleError::TooLarge {
            what: format!("{count} sections"),
            limit: most as u64,
        });
    }
    let table_end = HEAD + ENTRY * count;
    if bytes.len() < table_end + 32 {
        return Err(BundleError::Truncated {
            what: "section table".into(),
        });
    }
    if Sha256::digest(&bytes[..table_end]).as_slice() != &bytes[table_end..table_end + 32] {
        return Err(BundleError::Checksum {
            section: "header".into(),
        });
    }
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let at = HEAD + ENTRY * i;
        let kind = match Kind::from_u32(u32_at(bytes, at)) {
            Some(k) => k,
            // Written by a later minor version: this reader is too old, not the file wrong.
            None if minor > MINOR => return Err(BundleError::Version { major, minor }),
            None => {
                return Err(inconsistent(format!(
                    "unknown section kind {}",
                    u32_at(bytes, at)
                )))
            }
        };
        let codec = u32_at(bytes, at + 8);
        if codec > 1 {
            return Err(inconsistent(format!("unknown compression {codec}")));
        }
        let e = Entry {
            kind,
            doc: u32_at(bytes, at + 4),
            deflate: codec == 1,
            offset: u64_at(bytes, at + 16),
            stored_len: u64_at(bytes, at + 24),
            raw_len: u64_at(bytes, at + 32),
            sum: bytes[at + 40..at + 72].try_into().expect("32 bytes"),
        };
        if e.raw_len > limits::SECTION || e.stored_len > limits::SECTION {
            return Err(BundleError::TooLarge {
                what: format!(
                    "a {} section of {} bytes",
                    kind.name(),
                    e.raw_len.max(e.stored_len)
                ),
                limit: limits::SECTION,
            });
        }
        let end = e.offset.checked_add(e.stored_len);
        if end.is_none_or(|end| end > total) || e.offset < (table_end + 32) as u64 {
            return Err(BundleError::Truncated {
                what: format!("{} section", kind.name()),
            });
        }
        out.push(e);
    }
    Ok(out)
}

/// A section's bytes, checksum checked, inflated to exactly its declared length; `window` is
/// the part of the file that starts at byte `at` (the section must lie inside it).
fn open(window: &[u8], at: u64, e: &Entry) -> Result<Vec<u8>> {
    let name = e.kind.name();
    let stored = e
        .offset
        .checked_sub(at)
        .and_then(|from| window.get(from as usize..(from + e.stored_len) as usize))
        .ok_or_else(|| BundleError::Truncated {
            what: format!("{name} section (not in the bytes read)"),
        })?;
    if Sha256::digest(stored).as_slice() != e.sum {
        return Err(BundleError::Checksum {
            section: name.into(),
        });
    }
    if !e.deflate {
        if e.raw_len != e.stored_len {
            return Err(inconsistent(format!(
                "the stored {name} section's lengths differ"
            )));
        }
        return Ok(stored.to_vec());
    }
    // One byte more than declared is read to catch a section that inflates past it.
    let mut raw = Vec::new();
    DeflateDecoder::new(stored)
        .take(e.raw_len + 1)
        .read_to_end(&mut raw)
        .map_err(|_| BundleError::Inflate {
            section: name.into(),
            declared: e.raw_len,
        })?;
    if raw.len() as u64 != e.raw_len {
        return Err(BundleError::Inflate {
            section: name.into(),
            declared: e.raw_len,
        });
    }
    Ok(raw)
}

fn one(entries: &[Entry], kind: Kind) -> Result<&Entry> {
    let mut found = entries.iter().filter(|e| e.kind == kind);
    match (found.next(), found.next()) {
        (Some(e), None) => Ok(e),
        (None, _) => Err(inconsistent(format!("no {} section", kind.name()))),
        _ => Err(inconsistent(format!("two {} sections", kind.name()))),
    }
}

fn decode<T: serde::de::DeserializeOwned>(raw: &[u8], section: &str) -> Result<T> {
    postcard::from_bytes(raw).map_err(|e| BundleError::Malformed {
        section: section.into(),
        detail: e.to_string(),
    })
}

/// Checks the manifest alone: counts within limits and adding up.
fn check_manifest(m: &Manifest) -> Result<()> {
    if m.documents.len() > limits::DOCUMENTS {
        return Err(BundleError::TooLarge {
            what: format!("{} documents", m.documents.len()),
            limit: limits::DOCUMENTS as u64,
        });
    }
    if m.chunks > limits::CHUNKS {
        return Err(BundleError::TooLarge {
            what: format!("{} chunks", m.chunks),
            limit: limits::CHUNKS as u64,
        });
    }
    if m.dim == 0 || m.dim > limits::DIM {
        return Err(BundleError::TooLarge {
            what: format!("vectors of dimension {}", m.dim),
            limit: limits::DIM as u64,
        });
    }
    if m.documents
        .iter()
        .map(|d| d.chunks)
        .try_fold(0usize, usize::checked_add)
        != Some(m.chunks)
    {
        return Err(inconsistent(
            "the documents' chunk counts do not add up to the total",
        ));
    }
    let mut ids = HashSet::new();
    for d in &m.documents {
        let hex = d.id.len() == 64 && d.id.bytes().all(|b| b.is_ascii_hexdigit());
        if !hex || !ids.insert(d.id.as_str()) {
            return Err(inconsistent(format!(
                "document id {:?} is not a unique SHA-256",
                d.id
            )));
        }
    }
    Ok(())
}

/// Reads and validates a whole bundle (see the module).
pub fn read(bytes: &[u8]) -> Result<Bundle> {
    Layout::parse(bytes, bytes.len() as u64)?.assemble(0, bytes)
}

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
    /// against its section's checksum and the manifest's id (its SHA-256) and size.
    pub fn open_pdf(&self, manifest: &Manifest, doc: usize, bytes: &[u8]) -> Result<Vec<u8>> {
        let e = self
            .entries
            .iter()
            .find(|e| e.kind == Kind::Pdf && e.doc as usize == doc)
            .ok_or_else(|| inconsistent(format!("no PDF for document {doc}")))?;
        let pdf = open(bytes, e.offset, e)?;
        let m = manifest
            .documents
            .get(doc)
            .ok_or_else(|| inconsistent(format!("no document {doc}")))?;
        check_pdf(m, &pdf)?;
        Ok(pdf)
    }

    /// Validates and decodes the sections found in `window`, the bytes of the file from
    /// offset `at` (the whole file, or at least [`Layout::index_range`]). A PDF outside the
    /// window is left empty: a hosted bundle's PDFs are fetched when first shown.
    pub fn assemble(&self, at: u64, window: &[u8]) -> Result<Bundle> {
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
        check_manifest(&manifest)?;
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
