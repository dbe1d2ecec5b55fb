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
struct Stored {
    info: BuildInfo,
    documents: Vec<DocumentMeta>,
    chunks: Vec<ChunkRecord>,
    vectors: Vec<Vec<f32>>,
    lexical: Bm25,
    dense: Vec<u8>,
    // Last, so that a file of format 2 (without it) reads as one with none.
    neighbours: Option<SavedNeighbours>,
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
        if version != FORMAT_VERSION && version != 2 {
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
        // Format 2 is format 3 without its last field, the neighbours: read with none (postcard
        // writes `None` as one zero byte), they are computed again.
        let mut v2 = Vec::new();
        let body = if version == 2 {
            v2.reserve_exact(body.len() + 1);
            v2.extend_from_slice(body);
            v2.push(0);
            &v2[..]
        } else {
            body
        };
        let s: Stored = postcard::from_bytes(body).map_err(|e| Error::Index(e.to_string()))?;
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
