//! An indexed corpus: documents, their chunks with provenance, the chunk vectors, and the
//! lexical and vector indexes over them; searchable, and saved as one versioned, checksummed
//! byte string (what `fonte index` writes and the app will import).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::chunk::{Chunk, ChunkParams};
use crate::lang::{passage_languages, Lang};
use crate::lexical::{Bm25, Bm25Params};
use crate::pdf::Report;
use crate::retrieve::{within_budget, Fusion, Hit, Retriever, Search};
use crate::vector::VectorIndex;
use crate::{Error, Result};

/// Version of the serialized corpus; bump on any change of layout (2: typed partial reasons).
pub const FORMAT_VERSION: u32 = 2;
const MAGIC: &[u8; 8] = b"FONTEIDX";

/// A document of the corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentMeta {
    /// SHA-256 of the PDF bytes.
    pub id: String,
    /// File name as given.
    pub name: String,
    /// /Title, if any.
    pub title: Option<String>,
    /// Physical pages.
    pub pages: u32,
    /// How much text was read.
    pub report: Report,
    /// The model and chunker its chunks and vectors were made with. `None` in libraries
    /// written before this was recorded: then the library's own ([`crate::store::LibraryMeta`]).
    /// A library part way through a model switch holds documents of both; only those of its
    /// target are searched, the others wait to be re-embedded (never mixed, never deleted
    /// before their replacement is stored).
    #[serde(default)]
    pub build: Option<BuildInfo>,
}

/// A chunk and the number of its document in [`Corpus::documents`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChunkRecord {
    /// Index into `documents`.
    pub doc: u32,
    /// The chunk.
    pub chunk: Chunk,
}

/// What the corpus was built with; a mismatch with the current model means re-embedding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildInfo {
    /// Embedding model id.
    pub model_id: String,
    /// Vector dimension.
    pub dim: usize,
    /// Chunker parameters.
    pub chunk_params: ChunkParams,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    info: BuildInfo,
    documents: Vec<DocumentMeta>,
    chunks: Vec<ChunkRecord>,
    vectors: Vec<Vec<f32>>,
    lexical: Bm25,
    dense: Vec<u8>,
}

/// An indexed corpus in memory. Its parts change only together ([`Corpus::build`],
/// [`Corpus::add_document`], [`Corpus::remove_document`]), so the chunks, their vectors, the
/// BM25 index, the vector index and the chunk-to-document map always agree.
///
/// A document can also be searchable before its vectors exist ([`Corpus::begin_document`]):
/// its chunks are in the BM25 index at once, each vector joins the dense index as it comes
/// ([`Corpus::set_vectors`]), and the document stays *provisional* (left out of
/// [`Corpus::to_bytes`]) until [`Corpus::finish_document`].
pub struct Corpus {
    info: BuildInfo,
    documents: Vec<DocumentMeta>,
    chunks: Vec<ChunkRecord>,
    // Empty for a chunk whose vector has not come yet (its dense slot holds zeros).
    vectors: Vec<Vec<f32>>,
    fusion: Fusion,
    lexical: Bm25,
    dense: VectorIndex,
    chunk_doc: Vec<u32>,
    // Derived from the chunk texts (not stored): what the dense ranking is split by.
    chunk_lang: Vec<Option<Lang>>,
    // Per chunk, whether its vector is still to come; empty when every vector is in.
    pending: Vec<bool>,
    // Per document, whether it is provisional (not stored yet, maybe not embedded).
    provisional: Vec<bool>,
}

/// Each chunk's language, document by document ([`passage_languages`]).
fn chunk_languages(chunks: &[ChunkRecord]) -> Vec<Option<Lang>> {
    chunks
        .chunk_by(|a, b| a.doc == b.doc)
        .flat_map(|doc| passage_languages(doc.iter().map(|c| c.chunk.text.as_str())))
        .collect()
}

impl Corpus {
    /// Indexes chunks and their vectors (same order).
    pub fn build(
        info: BuildInfo,
        documents: Vec<DocumentMeta>,
        chunks: Vec<ChunkRecord>,
        vectors: Vec<Vec<f32>>,
    ) -> Result<Self> {
        if chunks.len() != vectors.len() {
            return Err(Error::Index(format!(
                "{} chunks but {} vectors",
                chunks.len(),
                vectors.len()
            )));
        }
        let lexical = Bm25::build(
            chunks.iter().map(|c| c.chunk.text.as_str()),
            Bm25Params::default(),
        );
        let dense = VectorIndex::build(info.dim, vectors.clone())?;
        let chunk_doc = chunks.iter().map(|c| c.doc).collect();
        let chunk_lang = chunk_languages(&chunks);
        let provisional = vec![false; documents.len()];
        Ok(Self {
            info,
            documents,
            chunks,
            vectors,
            lexical,
            dense,
            chunk_doc,
            chunk_lang,
            pending: Vec::new(),
            provisional,
            fusion: Fusion::default(),
        })
    }

    /// [`build`](Self::build) keeping which documents are provisional and which vectors are
    /// still to come (an empty vector), as [`remove_document`](Self::remove_document) needs.
    fn rebuild(
        info: BuildInfo,
        documents: Vec<DocumentMeta>,
        provisional: Vec<bool>,
        chunks: Vec<ChunkRecord>,
        vectors: Vec<Vec<f32>>,
    ) -> Result<Self> {
        let pending: Vec<bool> = vectors.iter().map(Vec::is_empty).collect();
        let filled = vectors
            .iter()
            .map(|v| {
                if v.is_empty() {
                    vec![0.0; info.dim]
                } else {
                    v.clone()
                }
            })
            .collect();
        let mut corpus = Self::build(info, documents, chunks, filled)?;
        corpus.vectors = vectors;
        corpus.provisional = provisional;
        if pending.contains(&true) {
            corpus.pending = pending;
        }
        Ok(corpus)
    }

    /// Build parameters.
    pub fn info(&self) -> &BuildInfo {
        &self.info
    }

    /// Documents, numbered by position (a chunk's `doc`).
    pub fn documents(&self) -> &[DocumentMeta] {
        &self.documents
    }

    /// Chunks of all documents; a hit's `chunk` indexes this.
    pub fn chunks(&self) -> &[ChunkRecord] {
        &self.chunks
    }

    /// One vector per chunk; empty for a chunk of a provisional document whose vector has not
    /// come yet.
    pub fn vectors(&self) -> &[Vec<f32>] {
        &self.vectors
    }

    /// How hybrid search fuses BM25 and dense rankings.
    pub fn fusion(&self) -> Fusion {
        self.fusion
    }

    /// Sets how hybrid search fuses the rankings (per model, or swept by `fonte eval`).
    pub fn set_fusion(&mut self, fusion: Fusion) {
        self.fusion = fusion;
    }

    /// A corpus with no documents yet.
    pub fn empty(info: BuildInfo) -> Self {
        Self::build(info, Vec::new(), Vec::new(), Vec::new()).expect("nothing to disagree")
    }

    /// The number of the document with this id, if present.
    pub fn document_number(&self, id: &str) -> Option<u32> {
        self.documents
            .iter()
            .position(|d| d.id == id)
            .map(|n| n as u32)
    }

    /// Adds one document's chunks and vectors (same order); a document already present (same
    /// id) is an error, so callers report duplicates instead of indexing twice.
    pub fn add_document(
        &mut self,
        meta: DocumentMeta,
        chunks: Vec<Chunk>,
        vectors: Vec<Vec<f32>>,
    ) -> Result<u32> {
        self.push_document(meta, chunks, vectors, false)
    }

    /// Adds a provisional document: its chunks are searchable by BM25 at once, by vector as
    /// [`set_vectors`](Self::set_vectors) gives them; it is not saved by
    /// [`to_bytes`](Self::to_bytes) until [`finish_document`](Self::finish_document).
    pub fn begin_document(&mut self, meta: DocumentMeta, chunks: Vec<Chunk>) -> Result<u32> {
        let pending = vec![Vec::new(); chunks.len()];
        self.push_document(meta, chunks, pending, true)
    }

    /// Gives vectors to chunks `first..` of provisional document `doc` (its own chunk
    /// numbering, in order).
    pub fn set_vectors(&mut self, doc: u32, first: usize, vectors: &[Vec<f32>]) -> Result<()> {
        if !self.is_provisional(doc) {
            return Err(Error::Index(format!(
                "document {doc} is not being embedded"
            )));
        }
        let start = self.chunk_doc.partition_point(|&d| d < doc) + first;
        let end = start + vectors.len();
        if end > self.chunk_doc.len() || self.chunk_doc[end - 1] != doc {
            return Err(Error::Index(format!(
                "{}: vectors for chunks {first}..{} of fewer",
                self.documents[doc as usize].name,
                first + vectors.len()
            )));
        }
        for (i, v) in (start..end).zip(vectors) {
            self.dense.set(i as u32, v)?;
            self.vectors[i] = v.clone();
            if let Some(p) = self.pending.get_mut(i) {
                *p = false;
            }
        }
        if !self.pending.contains(&true) {
            self.pending = Vec::new();
        }
        Ok(())
    }

    /// Ends provisional document `doc` once every vector of it is in (it is stored): it is
    /// saved like any other from now on.
    pub fn finish_document(&mut self, doc: u32) -> Result<()> {
        if !self.is_provisional(doc) {
            return Err(Error::Index(format!(
                "document {doc} is not being embedded"
            )));
        }
        let unembedded = (0..self.chunks.len())
            .filter(|&i| self.chunk_doc[i] == doc && !self.has_vector(i as u32))
            .count();
        if unembedded > 0 {
            return Err(Error::Index(format!(
                "{}: {unembedded} chunks without a vector",
                self.documents[doc as usize].name
            )));
        }
        self.provisional[doc as usize] = false;
        Ok(())
    }

    /// Whether document `doc` is provisional ([`begin_document`](Self::begin_document)).
    pub fn is_provisional(&self, doc: u32) -> bool {
        self.provisional.get(doc as usize) == Some(&true)
    }

    /// Whether chunk `chunk` has its vector (always, except in a provisional document still
    /// being embedded): a hit on a chunk without one was found by BM25 alone.
    pub fn has_vector(&self, chunk: u32) -> bool {
        self.pending.get(chunk as usize) != Some(&true)
    }

    fn push_document(
        &mut self,
        meta: DocumentMeta,
        chunks: Vec<Chunk>,
        vectors: Vec<Vec<f32>>,
        provisional: bool,
    ) -> Result<u32> {
        if self.document_number(&meta.id).is_some() {
            return Err(Error::Index(format!("{} is already indexed", meta.name)));
        }
        if chunks.len() != vectors.len() {
            return Err(Error::Index(format!(
                "{}: {} chunks but {} vectors",
                meta.name,
                chunks.len(),
                vectors.len()
            )));
        }
        if let Some(v) = vectors
            .iter()
            .find(|v| v.len() != self.info.dim && !(provisional && v.is_empty()))
        {
            return Err(Error::Index(format!(
                "{}: vector of dimension {}, the library uses {}",
                meta.name,
                v.len(),
                self.info.dim
            )));
        }
        let n = self.documents.len() as u32;
        if provisional {
            // Zero placeholders, kept out of dense searches until their vectors come.
            self.dense
                .extend(&vec![vec![0.0; self.info.dim]; chunks.len()])?;
            self.pending.resize(self.chunks.len(), false);
            self.pending.extend(std::iter::repeat_n(true, chunks.len()));
        } else {
            self.dense.extend(&vectors)?;
            if !self.pending.is_empty() {
                self.pending
                    .extend(std::iter::repeat_n(false, chunks.len()));
            }
        }
        for c in &chunks {
            self.lexical.push(&c.text);
        }
        self.chunk_doc.extend(std::iter::repeat_n(n, chunks.len()));
        self.chunk_lang
            .extend(passage_languages(chunks.iter().map(|c| c.text.as_str())));
        self.chunks.extend(
            chunks
                .into_iter()
                .map(|chunk| ChunkRecord { doc: n, chunk }),
        );
        self.vectors.extend(vectors);
        self.documents.push(meta);
        self.provisional.push(provisional);
        Ok(n)
    }

    /// Removes a document and its chunks; false if it was not there.
    pub fn remove_document(&mut self, id: &str) -> Result<bool> {
        let Some(gone) = self.document_number(id) else {
            return Ok(false);
        };
        let mut documents = std::mem::take(&mut self.documents);
        documents.remove(gone as usize);
        let mut provisional = std::mem::take(&mut self.provisional);
        provisional.remove(gone as usize);
        let mut chunks = Vec::with_capacity(self.chunks.len());
        let mut vectors = Vec::with_capacity(self.vectors.len());
        for (mut c, v) in std::mem::take(&mut self.chunks)
            .into_iter()
            .zip(std::mem::take(&mut self.vectors))
        {
            if c.doc == gone {
                continue;
            }
            if c.doc > gone {
                c.doc -= 1;
            }
            chunks.push(c);
            vectors.push(v);
        }
        let fusion = self.fusion;
        *self = Self::rebuild(self.info.clone(), documents, provisional, chunks, vectors)?;
        self.fusion = fusion;
        Ok(true)
    }

    /// Ranks chunks for a question (see [`Retriever::search`]).
    pub fn search(&self, search: &Search<'_>) -> Vec<Hit> {
        Retriever {
            lexical: &self.lexical,
            dense: &self.dense,
            chunk_doc: &self.chunk_doc,
            chunk_lang: &self.chunk_lang,
            pending: &self.pending,
            fusion: self.fusion,
        }
        .search(search)
    }

    /// The best hits whose text fits in `budget` characters.
    pub fn evidence(&self, hits: &[Hit], budget: usize) -> Vec<Hit> {
        within_budget(
            hits,
            |c| self.chunks[c as usize].chunk.text.chars().count(),
            budget,
        )
    }

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
        };
        let body = postcard::to_allocvec(&stored).map_err(|e| Error::Index(e.to_string()))?;
        let mut out = Vec::with_capacity(body.len() + 44);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&Sha256::digest(&body));
        out.extend_from_slice(&body);
        Ok(out)
    }

    /// The corpus without its provisional documents.
    fn settled(&self) -> Result<Self> {
        let keep: Vec<bool> = self.provisional.iter().map(|p| !p).collect();
        let mut number = Vec::with_capacity(keep.len());
        let mut next = 0;
        for &k in &keep {
            number.push(next);
            next += u32::from(k);
        }
        let documents = self
            .documents
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(d, _)| d.clone())
            .collect();
        let (chunks, vectors) = self
            .chunks
            .iter()
            .zip(&self.vectors)
            .filter(|(c, _)| keep[c.doc as usize])
            .map(|(c, v)| {
                let chunk = ChunkRecord {
                    doc: number[c.doc as usize],
                    chunk: c.chunk.clone(),
                };
                (chunk, v.clone())
            })
            .unzip();
        Self::build(self.info.clone(), documents, chunks, vectors)
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote, refusing a damaged or foreign file
    /// before using any of it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        if bytes.len() < 44 || &bytes[..8] != MAGIC {
            return Err(Error::Index("not a Fonte corpus file".into()));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
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
        let s: Stored = postcard::from_bytes(body).map_err(|e| Error::Index(e.to_string()))?;
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
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieve::Mode;

    fn tiny() -> Corpus {
        let info = BuildInfo {
            model_id: "test".into(),
            dim: 2,
            chunk_params: ChunkParams::default(),
        };
        let doc = DocumentMeta {
            build: None,
            id: "d".into(),
            name: "a.pdf".into(),
            title: None,
            pages: 1,
            report: Report::Complete,
        };
        let chunk = |t: &str| ChunkRecord {
            doc: 0,
            chunk: Chunk {
                page: 1,
                char_start: 0,
                char_end: t.chars().count(),
                heading_path: vec![],
                text: t.into(),
            },
        };
        Corpus::build(
            info,
            vec![doc],
            vec![chunk("alpha beta"), chunk("gamma delta")],
            vec![vec![1.0, 0.0], vec![0.0, 1.0]],
        )
        .unwrap()
    }

    #[test]
    fn round_trips_and_searches_the_same() {
        let c = tiny();
        let back = Corpus::from_bytes(&c.to_bytes().unwrap()).unwrap();
        assert_eq!(back.chunks, c.chunks);
        let q = [0.0, 1.0];
        assert_eq!(
            back.search(&Search::new("gamma", Some(&q)).depth(5)),
            c.search(&Search::new("gamma", Some(&q)).depth(5))
        );
        assert_eq!(
            back.search(&Search::new("gamma", Some(&q)).depth(5))[0].chunk,
            1
        );
    }

    #[test]
    fn a_damaged_file_is_refused_before_use() {
        let mut bytes = tiny().to_bytes().unwrap();
        let n = bytes.len();
        bytes[n - 3] ^= 0xff;
        assert!(Corpus::from_bytes(&bytes)
            .err()
            .unwrap()
            .to_string()
            .contains("damaged"));
        assert!(
            Corpus::from_bytes(b"%PDF-1.7 not a corpus at all, just some bytes here....").is_err()
        );
    }

    #[test]
    fn documents_are_added_and_removed_with_their_chunks() {
        let mut c = tiny();
        let meta = |id: &str| DocumentMeta {
            build: None,
            id: id.into(),
            name: format!("{id}.pdf"),
            title: None,
            pages: 1,
            report: Report::Complete,
        };
        let chunk = |t: &str| Chunk {
            page: 1,
            char_start: 0,
            char_end: t.chars().count(),
            heading_path: vec![],
            text: t.into(),
        };
        let n = c
            .add_document(meta("e"), vec![chunk("epsilon zeta")], vec![vec![0.6, 0.8]])
            .unwrap();
        assert_eq!(n, 1);
        let hit = c.search(&Search::new("epsilon", None).depth(5))[0].chunk;
        assert_eq!(c.chunks[hit as usize].doc, 1);
        // Same id again: refused, nothing changes.
        assert!(c
            .add_document(meta("e"), vec![chunk("x")], vec![vec![1.0, 0.0]])
            .is_err());
        assert_eq!(c.chunks.len(), 3);

        assert!(c.remove_document("d").unwrap());
        assert!(!c.remove_document("d").unwrap());
        assert_eq!(c.documents.len(), 1);
        assert_eq!(c.chunks.len(), 1);
        assert_eq!(c.chunks[0].doc, 0, "document numbers are compacted");
        assert!(c.search(&Search::new("alpha", None).depth(5)).is_empty());
        let q = [0.6, 0.8];
        assert_eq!(
            c.search(&Search::new("", Some(&q)).mode(Mode::Dense).depth(5))[0].chunk,
            0
        );
    }
}
