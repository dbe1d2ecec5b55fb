//! Writing a bundle from stored documents.

use std::io::Write;

use flate2::write::DeflateEncoder;
use flate2::Compression;
use sha2::{Digest, Sha256};

use super::{Kind, Manifest, ManifestDocument, ENTRY, HEAD, MAGIC, MAJOR, MINOR};
use crate::search::corpus::{About, BuildInfo, ChunkRecord};
use crate::store::StoredDocument;
use crate::{Error, Result};

/// What the bundle says about itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// When it is made (RFC 3339; the caller's clock).
    pub created: String,
    /// Whether to include the PDFs.
    pub pdfs: bool,
}

struct Section {
    kind: Kind,
    doc: u32,
    deflate: bool,
    raw_len: u64,
    bytes: Vec<u8>,
}

fn section(kind: Kind, doc: u32, raw: &[u8], deflate: bool) -> Result<Section> {
    let bytes = if deflate {
        let mut enc = DeflateEncoder::new(Vec::new(), Compression::default());
        enc.write_all(raw)?;
        enc.finish()?
    } else {
        raw.to_vec()
    };
    Ok(Section {
        kind,
        doc,
        deflate,
        raw_len: raw.len() as u64,
        bytes,
    })
}

/// Vectors as little-endian half floats (embeddings are unit vectors of small components:
/// f16's 11-bit mantissa keeps their cosines above 0.9999, and search scans them as int8).
fn f16_bytes(vectors: &[Vec<f32>]) -> Vec<u8> {
    vectors
        .iter()
        .flatten()
        .flat_map(|&x| half::f16::from_f32(x).to_le_bytes())
        .collect()
}

fn postcard<T: serde::Serialize>(v: &T) -> Result<Vec<u8>> {
    postcard::to_allocvec(v).map_err(|e| Error::Index(e.to_string()))
}

/// The bundle of `docs`, all built with `info`.
pub fn write(meta: &Meta, info: &BuildInfo, docs: &[StoredDocument]) -> Result<Vec<u8>> {
    let manifest = Manifest {
        title: meta.title.clone(),
        description: meta.description.clone(),
        created: meta.created.clone(),
        model_id: info.model_id.clone(),
        dim: info.dim,
        chunk_params: info.chunk_params,
        documents: docs
            .iter()
            .map(|d| ManifestDocument {
                id: d.meta.id.clone(),
                name: d.meta.name.clone(),
                title: d.meta.title.clone(),
                pages: d.meta.pages,
                size: d.pdf.len() as u64,
                report: d.meta.report.clone(),
                chunks: d.chunks.len(),
                about: About {
                    added: None,
                    ..d.meta.about.clone()
                },
            })
            .collect(),
        chunks: docs.iter().map(|d| d.chunks.len()).sum(),
        pdfs: meta.pdfs,
    };
    let chunks: Vec<ChunkRecord> = docs
        .iter()
        .enumerate()
        .flat_map(|(i, d)| {
            d.chunks.iter().map(move |c| ChunkRecord {
                doc: i as u32,
                chunk: c.clone(),
            })
        })
        .collect();
    let vectors: Vec<Vec<f32>> = docs.iter().flat_map(|d| d.vectors.clone()).collect();
    let pages: Vec<_> = docs.iter().map(|d| d.pages.clone()).collect();
    let mut sections = vec![
        section(
            Kind::Manifest,
            0,
            &serde_json::to_vec_pretty(&manifest)?,
            true,
        )?,
        section(Kind::Chunks, 0, &postcard(&chunks)?, true)?,
        section(Kind::VectorsF16, 0, &f16_bytes(&vectors), true)?,
        section(Kind::Pages, 0, &postcard(&pages)?, true)?,
    ];
    if meta.pdfs {
        for (i, d) in docs.iter().enumerate() {
            sections.push(section(Kind::Pdf, i as u32, &d.pdf, false)?);
        }
    }
    let table_end = HEAD + ENTRY * sections.len();
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&MAJOR.to_le_bytes());
    out.extend_from_slice(&MINOR.to_le_bytes());
    out.extend_from_slice(&(sections.len() as u32).to_le_bytes());
    // Sections start after the table and its checksum.
    let mut offset = (table_end + 32) as u64;
    for s in &sections {
        out.extend_from_slice(&(s.kind as u32).to_le_bytes());
        out.extend_from_slice(&s.doc.to_le_bytes());
        out.extend_from_slice(&u32::from(s.deflate).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(s.bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(&s.raw_len.to_le_bytes());
        out.extend_from_slice(&Sha256::digest(&s.bytes));
        offset += s.bytes.len() as u64;
    }
    let header_sum = Sha256::digest(&out);
    out.extend_from_slice(&header_sum);
    for s in sections {
        out.extend_from_slice(&s.bytes);
    }
    Ok(out)
}
