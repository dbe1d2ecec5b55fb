//! Reading a bundle: every check before anything is returned (docs/BUNDLE.md, "Validation"):
//! the header and its table here, the sections in the layout module.

use std::collections::HashSet;
use std::io::Read;

use flate2::read::DeflateDecoder;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{limits, Accepted, BundleError, Kind, Manifest, ENTRY, HEAD, MAGIC, MAJOR, MINOR};
use crate::search::corpus::BuildInfo;
use crate::store::StoredDocument;

pub(super) type Result<T> = std::result::Result<T, BundleError>;

/// A validated bundle: its manifest and its documents, ready to store. It crosses from the
/// reader worker, which validates it, to the page, which stores it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

pub(super) struct Entry {
    pub(super) kind: Kind,
    pub(super) doc: u32,
    pub(super) deflate: bool,
    pub(super) offset: u64,
    pub(super) stored_len: u64,
    pub(super) raw_len: u64,
    pub(super) sum: [u8; 32],
}

pub(super) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

pub(super) fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

pub(super) fn inconsistent(what: impl Into<String>) -> BundleError {
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
pub(super) fn entries(bytes: &[u8], total: u64) -> Result<Vec<Entry>> {
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
    let mut raw_total: u64 = 0;
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
        raw_total = raw_total.saturating_add(e.raw_len);
        if raw_total > limits::TOTAL {
            return Err(BundleError::TooLarge {
                what: "sections that decompress to more bytes in all".into(),
                limit: limits::TOTAL,
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
pub(super) fn open(window: &[u8], at: u64, e: &Entry) -> Result<Vec<u8>> {
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

pub(super) fn one(entries: &[Entry], kind: Kind) -> Result<&Entry> {
    let mut found = entries.iter().filter(|e| e.kind == kind);
    match (found.next(), found.next()) {
        (Some(e), None) => Ok(e),
        (None, _) => Err(inconsistent(format!("no {} section", kind.name()))),
        _ => Err(inconsistent(format!("two {} sections", kind.name()))),
    }
}

pub(super) fn decode<T: serde::de::DeserializeOwned>(raw: &[u8], section: &str) -> Result<T> {
    postcard::from_bytes(raw).map_err(|e| BundleError::Malformed {
        section: section.into(),
        detail: e.to_string(),
    })
}

/// A text of the bundle's longer than `limit` bytes is refused.
pub(super) fn check_len(what: &str, text: &str, limit: usize) -> Result<()> {
    if text.len() > limit {
        return Err(BundleError::TooLarge {
            what: format!("{what} of {} bytes", text.len()),
            limit: limit as u64,
        });
    }
    Ok(())
}

/// Checks the manifest alone: counts and texts within limits, counts adding up, and (unless
/// `accept` is empty) a model the reader can use.
pub(super) fn check_manifest(m: &Manifest, accept: &[Accepted]) -> Result<()> {
    check_len("a title", &m.title, limits::NAME)?;
    check_len("a description", &m.description, limits::DESCRIPTION)?;
    check_len("a model id", &m.model_id, limits::NAME)?;
    check_len("a creation date", &m.created, limits::NAME)?;
    if !accept.is_empty()
        && !accept
            .iter()
            .any(|a| a.model_id == m.model_id && a.dim == m.dim)
    {
        let library = accept
            .iter()
            .map(|a| a.model_id.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        return Err(BundleError::OtherModel {
            bundle: m.model_id.clone(),
            library,
        });
    }
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
        check_len("a document name", &d.name, limits::NAME)?;
        check_len(
            "a document title",
            d.title.as_deref().unwrap_or(""),
            limits::NAME,
        )?;
        check_len(
            "a version group's name",
            d.about.group.as_deref().unwrap_or(""),
            limits::NAME,
        )?;
        for (what, n, limit) in [
            ("dates of one document", d.about.found.len(), limits::DATES),
            (
                "distinct documents",
                d.about.distinct.len(),
                limits::DOCUMENTS,
            ),
        ] {
            if n > limit {
                return Err(BundleError::TooLarge {
                    what: format!("{n} {what}"),
                    limit: limit as u64,
                });
            }
        }
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
