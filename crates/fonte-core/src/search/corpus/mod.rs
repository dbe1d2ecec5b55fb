//! An indexed corpus: documents, their chunks with provenance, the chunk vectors, and the
//! lexical and vector indexes over them; searchable, and saved as one versioned, checksummed
//! byte string (what `fonte index` writes and the app will import).

use serde::{Deserialize, Serialize};

use crate::pdf::Report;
use crate::search::chunk::{Chunk, ChunkParams};
use crate::search::lang::{passage_languages, Lang};
use crate::search::lexical::{Bm25, Bm25Params};
use crate::search::retrieve::{Fusion, Neighbours};
use crate::search::vector::VectorIndex;
use crate::DocId;
use crate::{Error, Result};

pub mod about;
mod bytes;
mod provisional;
mod ranking;

pub use about::{About, DateFrom, Published, Standing, VersionNote};

/// Version of the serialized corpus; bump on any change of layout (2: typed partial reasons;
/// 3: each passage's nearest neighbours, [`crate::search::retrieve::Neighbours`]; 4: each
/// document's [`About`]). Formats 2 and 3 are still read (neighbours computed again, nothing
/// known about the documents).
pub const FORMAT_VERSION: u32 = 4;
const MAGIC: &[u8; 8] = b"FONTEIDX";

/// A document of the corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentMeta {
    /// SHA-256 of the PDF bytes.
    pub id: DocId,
    /// File name as given.
    pub name: String,
    /// /Title, if any.
    pub title: Option<String>,
    /// Physical pages.
    pub pages: u32,
    /// How much text was read.
    pub report: Report,
    /// The model and chunker its chunks and vectors were made with. `None` in libraries
    /// written before this was recorded: then the library's own (the store's `LibraryMeta`).
    /// A library part way through a model switch holds documents of both; only those of its
    /// target are searched, the others wait to be re-embedded (never mixed, never deleted
    /// before their replacement is stored).
    #[serde(default)]
    pub build: Option<BuildInfo>,
    /// Its publication date, when it was added, its versions ([`About`]).
    #[serde(default)]
    pub about: About,
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
    // The model's language axis, for `Languages::Projected` (empty: none).
    direction: Vec<f32>,
    // Each chunk's nearest neighbours and hubness, for `Languages::Hubness`: computed when a
    // ranking first needs them (at once, or a slice at a time: `build_neighbours`), then kept
    // up to date with every vector added or removed, and saved with the corpus once complete.
    // `None`: not asked for (or measured along another axis).
    neighbours: Option<Neighbours>,
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
            direction: Vec::new(),
            neighbours: None,
        })
    }

    /// Build parameters.
    pub fn info(&self) -> &BuildInfo {
        &self.info
    }

    /// Documents, numbered by position (a chunk's `doc`).
    pub fn documents(&self) -> &[DocumentMeta] {
        &self.documents
    }

    /// Each document's standing among its versions (same order as [`Corpus::documents`]).
    pub fn standings(&self) -> Vec<Standing> {
        about::standings(&self.documents)
    }

    /// Each document's [`VersionNote`] (`None` for one in no group), same order.
    pub fn version_notes(&self) -> Vec<Option<VersionNote>> {
        about::version_notes(&self.documents, &self.standings())
    }

    /// Replaces what is known about document `id` (its date, its versions); the indexes do not
    /// change. False when there is no such document.
    pub fn set_about(&mut self, id: &str, about: About) -> bool {
        match self.documents.iter_mut().find(|d| d.id == id) {
            Some(d) => {
                d.about = about;
                true
            }
            None => false,
        }
    }

    /// The languages its passages are in, English first.
    pub fn languages(&self) -> Vec<Lang> {
        [Lang::En, Lang::Pt]
            .into_iter()
            .filter(|l| self.chunk_lang.contains(&Some(*l)))
            .collect()
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
        let first = self.vectors.len();
        self.vectors.extend(vectors);
        if let Some(neighbours) = &mut self.neighbours {
            for i in first..self.vectors.len() {
                neighbours.add(&self.vectors, i);
            }
        }
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
        let mut neighbours = self.neighbours.take();
        if let Some(neighbours) = &mut neighbours {
            let keep: Vec<bool> = self.chunk_doc.iter().map(|&d| d != gone).collect();
            let leaving: Vec<usize> = (0..keep.len()).filter(|&i| !keep[i]).collect();
            neighbours.forget(&self.vectors, &leaving);
            neighbours.retain(&keep);
        }
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
        let direction = std::mem::take(&mut self.direction);
        *self = Self::rebuild(self.info.clone(), documents, provisional, chunks, vectors)?;
        self.fusion = fusion;
        self.direction = direction;
        self.neighbours = neighbours;
        Ok(true)
    }
}

#[cfg(test)]
impl DocumentMeta {
    /// A complete one-page document `id`, named `id.pdf`: for tests.
    pub(crate) fn one_page(id: &str) -> Self {
        DocumentMeta {
            build: None,
            id: id.into(),
            name: format!("{id}.pdf"),
            title: None,
            pages: 1,
            report: Report::Complete,
            about: About::default(),
        }
    }
}

#[cfg(test)]
mod tests;
