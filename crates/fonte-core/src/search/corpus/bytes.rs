//! The corpus as one byte string: magic, format version, SHA-256 of the body, the body
//! (postcard), what `fonte index` writes and the page saves as its index.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{chunk_languages, BuildInfo, ChunkRecord, Corpus, DocumentMeta, FORMAT_VERSION, MAGIC};
use crate::search::lexical::Bm25;
use crate::search::retrieve::{Fusion, Neighbours, SavedNeighbours};
use crate::search::vector::VectorIndex;
use crate::{Error, Result};

#[derive(Serialize, Deserialize)]
struct Stored<D = DocumentMeta> {
    info: BuildInfo,
    documents: Vec<D>,
    chunks: Vec<ChunkRecord>,
    vectors: Vec<Vec<f32>>,
    lexical: Bm25,
    dense: Vec<u8>,
    // Last, so that a file of format 2 (without it) reads as one with none.
    neighbours: Option<SavedNeighbours>,
}

/// A document as formats 2 and 3 wrote it: without its [`super::About`] (postcard writes no
/// field names, so the older layout needs its own type).
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
struct DocumentMetaV3 {
    id: crate::DocId,
    name: String,
    title: Option<String>,
    pages: u32,
    report: crate::pdf::Report,
    build: Option<BuildInfo>,
}

impl From<DocumentMetaV3> for DocumentMeta {
    fn from(d: DocumentMetaV3) -> Self {
        DocumentMeta {
            id: d.id,
            name: d.name,
            title: d.title,
            pages: d.pages,
            report: d.report,
            build: d.build,
            about: Default::default(),
        }
    }
}

impl Corpus {
    /// Serializes: magic, format version, SHA-256 of the body, body. Provisional documents
    /// are left out (they are not stored yet).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        if self.provisional.contains(&true) {
            return self.settled()?.to_bytes();
        }
        let stored = Stored {
            info: self.info.clone(),
            documents: self.documents.clone(),
            chunks: self.chunks.clone(),
            vectors: self.vectors.clone(),
            lexical: self.lexical.clone(),
            dense: self.dense.to_bytes()?,
            neighbours: self
                .neighbours
                .as_ref()
                .filter(|n| n.is_complete())
                .map(Neighbours::saved),
        };
        let body = postcard::to_allocvec(&stored).map_err(|e| Error::Index(e.to_string()))?;
        let mut out = Vec::with_capacity(body.len() + 44);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&Sha256::digest(&body));
        out.extend_from_slice(&body);
        Ok(out)
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote, refusing a damaged or foreign file
    /// before using any of it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        if bytes.len() < 44 || &bytes[..8] != MAGIC {
            return Err(Error::Index("not a Fonte corpus file".into()));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if !(2..=FORMAT_VERSION).contains(&version) {
            return Err(Error::Index(format!(
                "corpus format {version}, this build reads {FORMAT_VERSION}: rebuild it"
            )));
        }
        let body = &bytes[44..];
        if Sha256::digest(body).as_slice() != &bytes[12..44] {
            return Err(Error::Index(
                "corpus file is damaged (checksum mismatch)".into(),
            ));
        }
        let s: Stored = match version {
            FORMAT_VERSION => {
                postcard::from_bytes(body).map_err(|e| Error::Index(e.to_string()))?
            }
            _ => {
                // Format 2 is format 3 without its last field, the neighbours: read with none
                // (postcard writes `None` as one zero byte), they are computed again.
                let mut old = Vec::with_capacity(body.len() + 1);
                old.extend_from_slice(body);
                if version == 2 {
                    old.push(0);
                }
                let s: Stored<DocumentMetaV3> =
                    postcard::from_bytes(&old).map_err(|e| Error::Index(e.to_string()))?;
                Stored {
                    info: s.info,
                    documents: s.documents.into_iter().map(Into::into).collect(),
                    chunks: s.chunks,
                    vectors: s.vectors,
                    lexical: s.lexical,
                    dense: s.dense,
                    neighbours: s.neighbours,
                }
            }
        };
        // Lists that do not fit the vectors are computed again rather than trusted.
        let neighbours = s
            .neighbours
            .and_then(|saved| Neighbours::restore(saved, &s.vectors));
        let dense = VectorIndex::from_bytes(&s.dense)?;
        let chunk_doc = s.chunks.iter().map(|c| c.doc).collect();
        let chunk_lang = chunk_languages(&s.chunks);
        Ok(Self {
            chunk_lang,
            pending: Vec::new(),
            provisional: vec![false; s.documents.len()],
            info: s.info,
            documents: s.documents,
            chunks: s.chunks,
            vectors: s.vectors,
            lexical: s.lexical,
            dense,
            chunk_doc,
            fusion: Fusion::default(),
            direction: Vec::new(),
            neighbours,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::corpus::tests::tiny;

    /// `corpus` as format 3 wrote it (format 2: without the trailing neighbours).
    fn older(corpus: &Corpus, version: u32) -> Vec<u8> {
        let documents = corpus
            .documents
            .iter()
            .map(|d| DocumentMetaV3 {
                id: d.id.clone(),
                name: d.name.clone(),
                title: d.title.clone(),
                pages: d.pages,
                report: d.report.clone(),
                build: d.build.clone(),
            })
            .collect();
        let stored = Stored::<DocumentMetaV3> {
            info: corpus.info.clone(),
            documents,
            chunks: corpus.chunks.clone(),
            vectors: corpus.vectors.clone(),
            lexical: corpus.lexical.clone(),
            dense: corpus.dense.to_bytes().unwrap(),
            neighbours: None,
        };
        let mut body = postcard::to_allocvec(&stored).unwrap();
        if version == 2 {
            assert_eq!(body.pop(), Some(0), "None is one zero byte");
        }
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&Sha256::digest(&body));
        out.extend_from_slice(&body);
        out
    }

    #[test]
    fn files_of_formats_2_and_3_are_still_read_without_what_they_lacked() {
        let mut c = tiny();
        c.documents[0].about.group = Some("g".into());
        for version in [2, 3] {
            let back = Corpus::from_bytes(&older(&c, version)).unwrap();
            assert_eq!(back.chunks, c.chunks);
            assert_eq!(back.documents[0].id, c.documents[0].id);
            assert_eq!(
                back.documents[0].about,
                crate::search::corpus::About::default()
            );
            assert!(!back.has_neighbours());
        }
        let mut v1 = older(&c, 2);
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        assert!(Corpus::from_bytes(&v1).is_err());
        // Format 4 keeps what is known about each document.
        let back = Corpus::from_bytes(&c.to_bytes().unwrap()).unwrap();
        assert_eq!(back.documents[0].about.group.as_deref(), Some("g"));
    }
}
