//! Where a library lives between visits: the [`Store`] trait (IndexedDB in the browser app,
//! [`MemStore`] here), [`open_library`] that turns a store back into a searchable [`Corpus`],
//! and [`suite`], the behaviour every store must show.
//!
//! A document is written in one step ([`Store::put_document`]) so a tab closed mid-ingest
//! leaves either the whole document or nothing; the file itself waits as a [`PendingFile`]
//! until then, so it can be offered again on the next visit.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::pdf::PageText;
use crate::search::chunk::Chunk;
use crate::search::corpus::{BuildInfo, Corpus, DocumentMeta};
use crate::DocId;
use crate::{Error, Result};

/// Version of the stored layout; a library written with another one is re-indexed, not read.
pub const STORE_FORMAT: u32 = 1;

/// What the whole library was built with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LibraryMeta {
    /// [`STORE_FORMAT`] at the time of writing.
    pub format: u32,
    /// Model and chunker; every vector in the library comes from this model (or, while
    /// `next` is set, from that one for the documents already re-embedded).
    pub info: BuildInfo,
    /// The model and chunker the library is being moved to, while a switch is under way: set
    /// before the first document is re-embedded, cleared once the last one is stored
    /// ([`begin_switch`], [`finish_switch`]). A closed tab in between loses nothing: the next
    /// visit opens the documents already moved and re-embeds the rest.
    #[serde(default)]
    pub next: Option<BuildInfo>,
    /// Documents whose text came from a bundle (imported, or a hosted corpus), each with the
    /// bundle's title: text nobody here read from the PDF, which may not be the PDF's own.
    /// Dropping the real PDF (the same SHA-256) reads it and replaces that copy, which then
    /// leaves this list (docs/RELIABILITY.md, "The sharing doors").
    #[serde(default)]
    pub from_bundles: BTreeMap<DocId, String>,
}

impl LibraryMeta {
    /// What the library is, or is becoming: the build new documents must have.
    pub fn target(&self) -> &BuildInfo {
        self.next.as_ref().unwrap_or(&self.info)
    }

    /// The build a stored document was made with.
    pub fn build_of<'a>(&'a self, doc: &'a DocumentMeta) -> &'a BuildInfo {
        doc.build.as_ref().unwrap_or(&self.info)
    }
}

/// Everything kept for one document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredDocument {
    /// Name, pages, report; `meta.id` is the key.
    pub meta: DocumentMeta,
    /// The original file, for showing its pages.
    #[serde(with = "serde_bytes")]
    pub pdf: Vec<u8>,
    /// Its chunks.
    pub chunks: Vec<Chunk>,
    /// One vector per chunk.
    pub vectors: Vec<Vec<f32>>,
    /// The text of each page read, with its lines' positions: what a cited passage is marked
    /// on when its page is shown.
    pub pages: Vec<PageText>,
}

/// A file accepted for ingestion and not yet stored as a document, as listed: its bytes are
/// kept apart ([`Store::pending_bytes`]), so listing ten large files on opening a library holds
/// none of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingFile {
    /// SHA-256 of the bytes (the future document id).
    pub id: DocId,
    /// File name as given.
    pub name: String,
    /// Its size in bytes (0 for a file kept by a version that did not record it).
    #[serde(default)]
    pub size: u64,
}

/// Persistent storage of a library. Browser futures are not `Send`, so neither are these.
#[allow(async_fn_in_trait)]
pub trait Store {
    /// The library's build parameters, if any document was ever stored.
    async fn meta(&self) -> Result<Option<LibraryMeta>>;
    /// Records the build parameters.
    async fn set_meta(&self, meta: &LibraryMeta) -> Result<()>;
    /// Every stored document (in no particular order).
    async fn documents(&self) -> Result<Vec<DocumentMeta>>;
    /// A document's chunks and vectors.
    async fn load_document(&self, id: &str) -> Result<Option<(Vec<Chunk>, Vec<Vec<f32>>)>>;
    /// A document's original file.
    async fn pdf(&self, id: &str) -> Result<Option<Vec<u8>>>;
    /// Page `number` (1-based) of a document: its text and lines. `None` when the document or
    /// the page is not stored (documents stored before pages were kept have none).
    async fn page(&self, id: &str, number: u32) -> Result<Option<PageText>>;
    /// Every stored page of a document (empty when none is stored).
    async fn pages(&self, id: &str) -> Result<Vec<PageText>>;
    /// Stores a whole document, removes its pending file and the (now stale) saved index, all
    /// at once: after a failure or a closed tab none of it has happened.
    async fn put_document(&self, doc: &StoredDocument) -> Result<()>;
    /// Removes a document (and the saved index) at once.
    async fn delete_document(&self, id: &str) -> Result<()>;
    /// Replaces a stored document's record (its date, its versions; not its text) and drops
    /// the saved index, at once. A document not stored is left so (no record is made).
    async fn put_meta(&self, meta: &DocumentMeta) -> Result<()>;
    /// Keeps a file (listed as `file`, its bytes apart) until its document is stored.
    async fn put_pending(&self, file: &PendingFile, bytes: &[u8]) -> Result<()>;
    /// Files accepted but never finished, listed without their bytes.
    async fn pending(&self) -> Result<Vec<PendingFile>>;
    /// A pending file's bytes.
    async fn pending_bytes(&self, id: &str) -> Result<Option<Vec<u8>>>;
    /// Forgets a pending file.
    async fn delete_pending(&self, id: &str) -> Result<()>;
    /// The saved search index ([`Corpus::to_bytes`]).
    async fn index(&self) -> Result<Option<Vec<u8>>>;
    /// Saves the search index.
    async fn set_index(&self, bytes: &[u8]) -> Result<()>;
    /// Removes everything.
    async fn clear(&self) -> Result<()>;
}

/// Vectors as little-endian f32 bytes: a store keeps one byte string per document instead of
/// millions of numbers (which IndexedDB would clone one by one).
pub fn vectors_to_bytes(vectors: &[Vec<f32>]) -> Vec<u8> {
    vectors
        .iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect()
}

/// The inverse of [`vectors_to_bytes`].
pub fn vectors_from_bytes(bytes: &[u8], dim: usize) -> Result<Vec<Vec<f32>>> {
    if dim == 0 || !bytes.len().is_multiple_of(4 * dim) {
        return Err(Error::Store(format!(
            "{} bytes of vectors do not divide into dimension {dim}",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(4 * dim)
        .map(|v| {
            v.chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
                .collect()
        })
        .collect())
}

/// Chunks as compact bytes.
pub fn chunks_to_bytes(chunks: &[Chunk]) -> Result<Vec<u8>> {
    postcard::to_allocvec(chunks).map_err(|e| Error::Store(e.to_string()))
}

/// Page texts as compact bytes.
pub fn pages_to_bytes(pages: &[PageText]) -> Result<Vec<u8>> {
    postcard::to_allocvec(pages).map_err(|e| Error::Store(e.to_string()))
}

/// The inverse of [`pages_to_bytes`].
pub fn pages_from_bytes(bytes: &[u8]) -> Result<Vec<PageText>> {
    postcard::from_bytes(bytes).map_err(|e| Error::Store(format!("stored pages: {e}")))
}

/// The inverse of [`chunks_to_bytes`].
pub fn chunks_from_bytes(bytes: &[u8]) -> Result<Vec<Chunk>> {
    postcard::from_bytes(bytes).map_err(|e| Error::Store(format!("stored chunks: {e}")))
}

/// How a library came back.
pub enum Opened {
    /// Ready to search; `restored` says whether the saved index was used (else it was
    /// rebuilt from the stored chunks and vectors, and saved again).
    Ready {
        /// The library.
        corpus: Box<Corpus>,
        /// Whether the saved index was current and used as is.
        restored: bool,
        /// Stored documents made with another build (a model switch under way): not searched,
        /// to be re-embedded from their stored PDFs.
        stale: Vec<DocumentMeta>,
        /// Stored documents whose chunks or vectors cannot be read back: not searched, listed
        /// so they can be deleted (one damaged record must not keep the library closed).
        damaged: Vec<DocumentMeta>,
    },
    /// The stored library was built with another model, chunker or format: it must be
    /// re-indexed (from the stored PDFs), never mixed with new vectors.
    Mismatch {
        /// What the store holds.
        stored: LibraryMeta,
    },
}

/// Opens the library in `store` for a build with `info`: the documents made with it, and the
/// others (a model switch under way) listed as stale.
pub async fn open_library<S: Store>(store: &S, info: &BuildInfo) -> Result<Opened> {
    let meta = match store.meta().await? {
        None => {
            let meta = LibraryMeta {
                format: STORE_FORMAT,
                info: info.clone(),
                next: None,
                from_bundles: BTreeMap::new(),
            };
            store.set_meta(&meta).await?;
            meta
        }
        Some(stored) if stored.format != STORE_FORMAT || stored.target() != info => {
            return Ok(Opened::Mismatch { stored })
        }
        Some(stored) => stored,
    };
    let (documents, stale): (Vec<DocumentMeta>, Vec<DocumentMeta>) = store
        .documents()
        .await?
        .into_iter()
        .partition(|d| meta.build_of(d) == info);
    if let Some(bytes) = store.index().await? {
        if let Ok(corpus) = Corpus::from_bytes(&bytes) {
            let same_docs = corpus.documents().len() == documents.len()
                && corpus.documents().iter().all(|d| documents.contains(d));
            if same_docs && *corpus.info() == *info {
                return Ok(Opened::Ready {
                    corpus: Box::new(corpus),
                    restored: true,
                    stale,
                    damaged: Vec::new(),
                });
            }
        }
    }
    let mut corpus = Corpus::empty(info.clone());
    let mut damaged = Vec::new();
    for meta in documents {
        match store.load_document(&meta.id).await {
            Ok(Some((chunks, vectors))) if chunks.len() == vectors.len() => {
                // Vectors of the wrong dimension, say: damaged, not fatal.
                if corpus.add_document(meta.clone(), chunks, vectors).is_err() {
                    damaged.push(meta);
                }
            }
            // Listed but its chunks are missing, do not decode, or do not match its vectors.
            _ => damaged.push(meta),
        }
    }
    store.set_index(&corpus.to_bytes()?).await?;
    Ok(Opened::Ready {
        corpus: Box::new(corpus),
        restored: false,
        stale,
        damaged,
    })
}

/// Starts moving the library to `next` (another model or chunker): from now on it opens as
/// `next`, and its documents made otherwise are stale until re-embedded and stored again
/// ([`Store::put_document`] replaces each in one step). Nothing is deleted.
pub async fn begin_switch<S: Store>(store: &S, next: &BuildInfo) -> Result<()> {
    let meta = match store.meta().await? {
        Some(m) if m.format == STORE_FORMAT => LibraryMeta {
            // Documents without a recorded build keep the one they were made with.
            info: m.info,
            next: Some(next.clone()),
            format: STORE_FORMAT,
            // Re-embedded from the same text: where it came from does not change.
            from_bundles: m.from_bundles,
        },
        // A library of another layout, or none: nothing in it can be searched as is, so its
        // documents without a recorded build count as made with an unknown one (stale).
        _ => LibraryMeta {
            format: STORE_FORMAT,
            info: BuildInfo {
                model_id: String::new(),
                dim: 0,
                chunk_params: next.chunk_params,
            },
            next: Some(next.clone()),
            from_bundles: BTreeMap::new(),
        },
    };
    store.set_meta(&meta).await
}

/// Ends a switch once no document of the old build is left; true when the library is now
/// wholly its target build.
pub async fn finish_switch<S: Store>(store: &S) -> Result<bool> {
    let Some(meta) = store.meta().await? else {
        return Ok(true);
    };
    let Some(next) = meta.next.clone() else {
        return Ok(true);
    };
    let documents = store.documents().await?;
    if documents.iter().any(|d| *meta.build_of(d) != next) {
        return Ok(false);
    }
    store
        .set_meta(&LibraryMeta {
            format: STORE_FORMAT,
            info: next,
            next: None,
            from_bundles: meta.from_bundles.clone(),
        })
        .await?;
    Ok(true)
}

mod mem;
pub use mem::MemStore;

pub mod suite;

#[cfg(test)]
mod tests {
    use super::*;

    /// A MemStore whose document "b" cannot be read back.
    struct Damaged(MemStore);

    impl Store for Damaged {
        async fn meta(&self) -> Result<Option<LibraryMeta>> {
            self.0.meta().await
        }
        async fn set_meta(&self, meta: &LibraryMeta) -> Result<()> {
            self.0.set_meta(meta).await
        }
        async fn documents(&self) -> Result<Vec<DocumentMeta>> {
            self.0.documents().await
        }
        async fn load_document(&self, id: &str) -> Result<Option<(Vec<Chunk>, Vec<Vec<f32>>)>> {
            if id == "b" {
                return Err(Error::Store(
                    "stored chunks: unexpected end of input".into(),
                ));
            }
            self.0.load_document(id).await
        }
        async fn pdf(&self, id: &str) -> Result<Option<Vec<u8>>> {
            self.0.pdf(id).await
        }
        async fn page(&self, id: &str, number: u32) -> Result<Option<PageText>> {
            self.0.page(id, number).await
        }
        async fn pages(&self, id: &str) -> Result<Vec<PageText>> {
            self.0.pages(id).await
        }
        async fn put_document(&self, doc: &StoredDocument) -> Result<()> {
            self.0.put_document(doc).await
        }
        async fn put_meta(&self, meta: &DocumentMeta) -> Result<()> {
            self.0.put_meta(meta).await
        }
        async fn delete_document(&self, id: &str) -> Result<()> {
            self.0.delete_document(id).await
        }
        async fn put_pending(&self, file: &PendingFile, bytes: &[u8]) -> Result<()> {
            self.0.put_pending(file, bytes).await
        }
        async fn pending(&self) -> Result<Vec<PendingFile>> {
            self.0.pending().await
        }
        async fn pending_bytes(&self, id: &str) -> Result<Option<Vec<u8>>> {
            self.0.pending_bytes(id).await
        }
        async fn delete_pending(&self, id: &str) -> Result<()> {
            self.0.delete_pending(id).await
        }
        async fn index(&self) -> Result<Option<Vec<u8>>> {
            self.0.index().await
        }
        async fn set_index(&self, bytes: &[u8]) -> Result<()> {
            self.0.set_index(bytes).await
        }
        async fn clear(&self) -> Result<()> {
            self.0.clear().await
        }
    }

    #[test]
    fn one_unreadable_document_does_not_keep_the_library_closed() {
        let store = Damaged(MemStore::default());
        let info = BuildInfo {
            model_id: "m".into(),
            dim: 2,
            chunk_params: crate::search::chunk::ChunkParams::default(),
        };
        let doc = |id: &str| StoredDocument {
            meta: DocumentMeta {
                build: None,
                about: Default::default(),
                id: id.into(),
                name: format!("{id}.pdf"),
                title: None,
                pages: 1,
                report: crate::pdf::Report::Complete,
            },
            pdf: b"%PDF".to_vec(),
            chunks: vec![Chunk {
                page: 1,
                char_start: 0,
                char_end: 4,
                heading_path: Vec::new(),
                text: "word".into(),
            }],
            vectors: vec![vec![1.0, 0.0]],
            pages: Vec::new(),
        };
        pollster::block_on(async {
            store.put_document(&doc("a")).await.unwrap();
            store.put_document(&doc("b")).await.unwrap();
            let Opened::Ready {
                corpus, damaged, ..
            } = open_library(&store, &info).await.unwrap()
            else {
                panic!("mismatch");
            };
            assert_eq!(corpus.documents().len(), 1);
            assert_eq!(corpus.documents()[0].id, "a");
            assert_eq!(
                damaged.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(),
                ["b"]
            );
            // It can be deleted, and then the library is whole again.
            store.delete_document("b").await.unwrap();
            let Opened::Ready { damaged, .. } = open_library(&store, &info).await.unwrap() else {
                panic!("mismatch");
            };
            assert!(damaged.is_empty());
        });
    }

    #[test]
    fn mem_store_passes_the_suite() {
        pollster::block_on(suite::run(&MemStore::default())).unwrap();
    }

    #[test]
    fn vectors_and_chunks_round_trip_as_bytes() {
        let v = vec![vec![0.5, -1.25, 3.0], vec![f32::MIN_POSITIVE, 0.0, 1e9]];
        assert_eq!(vectors_from_bytes(&vectors_to_bytes(&v), 3).unwrap(), v);
        assert!(vectors_from_bytes(&[0; 10], 3).is_err());
        let c = vec![Chunk {
            page: 2,
            char_start: 1,
            char_end: 4,
            heading_path: vec!["Ação".into()],
            text: "ção".into(),
        }];
        assert_eq!(chunks_from_bytes(&chunks_to_bytes(&c).unwrap()).unwrap(), c);
    }
}
