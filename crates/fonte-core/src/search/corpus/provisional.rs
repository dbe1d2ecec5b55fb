//! Provisional documents: searchable by their text before their vectors exist, embedded chunk
//! by chunk, left out of the saved corpus until they are stored ([`Corpus::begin_document`]).

use super::{BuildInfo, ChunkRecord, Corpus, DocumentMeta};
use crate::search::chunk::Chunk;
use crate::search::retrieve::Hit;
use crate::{Error, Result};

impl Corpus {
    /// [`build`](Self::build) keeping which documents are provisional and which vectors are
    /// still to come (an empty vector), as [`remove_document`](Self::remove_document) needs.
    pub(super) fn rebuild(
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
            if self.vectors[i] == *v {
                continue;
            }
            self.dense.set(i as u32, v)?;
            if let Some(neighbours) = &mut self.neighbours {
                // Another vector than the one it had (an embedding done again): out first.
                neighbours.forget(&self.vectors, &[i]);
            }
            self.vectors[i] = v.clone();
            if let Some(neighbours) = &mut self.neighbours {
                neighbours.add(&self.vectors, i);
            }
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

    /// The document still being embedded that a search is after: the first among the first
    /// `within` hits that comes from a provisional document, whether or not the passage hit
    /// already has its vector (the document's others may not). `None` when they all come
    /// from stored documents.
    pub fn still_embedding_among(&self, hits: &[Hit], within: usize) -> Option<u32> {
        hits.iter()
            .take(within)
            .map(|h| self.chunk_doc[h.chunk as usize])
            .find(|&doc| self.is_provisional(doc))
    }

    /// Whether chunk `chunk` has its vector (always, except in a provisional document still
    /// being embedded): a hit on a chunk without one was found by BM25 alone.
    pub fn has_vector(&self, chunk: u32) -> bool {
        self.pending.get(chunk as usize) != Some(&true)
    }

    /// The corpus without its provisional documents.
    pub(super) fn settled(&self) -> Result<Self> {
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
        let mut settled = Self::build(self.info.clone(), documents, chunks, vectors)?;
        // What is saved is complete: the passages that had a provisional one among their
        // nearest get their lists again here (saving with documents still embedding is rare:
        // the queue saves once it has nothing left to read).
        settled.neighbours = self.neighbours.clone().map(|mut neighbours| {
            let kept: Vec<bool> = self.chunk_doc.iter().map(|&d| keep[d as usize]).collect();
            let leaving: Vec<usize> = (0..kept.len()).filter(|&i| !kept[i]).collect();
            neighbours.forget(&self.vectors, &leaving);
            neighbours.retain(&kept);
            neighbours.build(&settled.vectors, usize::MAX);
            neighbours
        });
        Ok(settled)
    }
}
