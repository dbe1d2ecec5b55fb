//! A library: a [`Store`] and the searchable [`Corpus`] built from it, kept in step. Every
//! operation writes the store first and changes the corpus only once the store has it, so a
//! failure (a full quota, a closed tab) leaves the two agreeing; nothing is deleted before its
//! replacement is stored ([`Library::begin_switch`]).
//!
//! Single-threaded by design (browser futures are not `Send`): the methods take `&self`, the
//! corpus sits in a `RefCell`, and no borrow of it is held across an `.await`.
//!
//! ```
//! use fonte_core::corpus::BuildInfo;
//! use fonte_core::library::{Library, Opening};
//! use fonte_core::store::MemStore;
//! let info = BuildInfo { model_id: "m".into(), dim: 3, chunk_params: Default::default() };
//! let (library, opening) = pollster::block_on(Library::open(MemStore::default(), &info)).unwrap();
//! assert!(matches!(opening, Opening::Ready { .. }));
//! assert_eq!(library.documents().len(), 0);
//! ```

use std::cell::{Ref, RefCell};

use crate::corpus::{BuildInfo, Corpus, DocumentMeta};
use crate::store::{begin_switch, finish_switch, open_library, Opened, Store, StoredDocument};
use crate::Result;

/// How a library came back from its store.
#[derive(Debug, Clone, PartialEq)]
pub enum Opening {
    /// Searchable.
    Ready {
        /// Whether the saved index was used as is (else rebuilt from the documents).
        restored: bool,
        /// Documents of another build (a switch under way): to re-embed from their PDFs.
        stale: Vec<DocumentMeta>,
        /// Documents whose stored data cannot be read back: listed, to be deleted.
        damaged: Vec<DocumentMeta>,
    },
    /// The store holds a library of another build; it opens empty until re-indexed
    /// ([`Library::begin_switch`]), and is never mixed with new vectors.
    Mismatch {
        /// What the store's library was built with.
        stored: BuildInfo,
    },
}

/// A store and its searchable corpus.
pub struct Library<S: Store> {
    store: S,
    corpus: RefCell<Corpus>,
    // Set while the store's library is of another build: nothing may be added until a switch
    // begins.
    mismatched: std::cell::Cell<bool>,
}

impl<S: Store> Library<S> {
    /// Opens the library in `store` for a build with `info`.
    pub async fn open(store: S, info: &BuildInfo) -> Result<(Self, Opening)> {
        let (corpus, opening, mismatched) = match open_library(&store, info).await? {
            Opened::Ready {
                corpus,
                restored,
                stale,
                damaged,
            } => (
                *corpus,
                Opening::Ready {
                    restored,
                    stale,
                    damaged,
                },
                false,
            ),
            Opened::Mismatch { stored } => (
                Corpus::empty(info.clone()),
                Opening::Mismatch {
                    stored: stored.target().clone(),
                },
                true,
            ),
        };
        let library = Self {
            store,
            corpus: RefCell::new(corpus),
            mismatched: std::cell::Cell::new(mismatched),
        };
        Ok((library, opening))
    }

    /// The store (for what the library does not wrap: pending files, PDFs).
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Gives the store back (closing the library).
    pub fn into_store(self) -> S {
        self.store
    }

    /// The searchable corpus. Do not hold the borrow across an `.await`.
    pub fn corpus(&self) -> Ref<'_, Corpus> {
        self.corpus.borrow()
    }

    /// Sets how lexical and dense rankings are fused (per model).
    pub fn set_fusion(&self, fusion: crate::retrieve::Fusion) {
        self.corpus.borrow_mut().set_fusion(fusion);
    }

    /// The build documents added now must have.
    pub fn info(&self) -> BuildInfo {
        self.corpus.borrow().info().clone()
    }

    /// The searchable documents.
    pub fn documents(&self) -> Vec<DocumentMeta> {
        self.corpus.borrow().documents().to_vec()
    }

    /// The name of the searchable document with this id, if any.
    pub fn name_of(&self, id: &str) -> Option<String> {
        let corpus = self.corpus.borrow();
        let n = corpus.document_number(id)?;
        Some(corpus.documents()[n as usize].name.clone())
    }

    /// Chunks of the document with this id.
    pub fn chunk_count(&self, id: &str) -> usize {
        let corpus = self.corpus.borrow();
        let Some(n) = corpus.document_number(id) else {
            return 0;
        };
        corpus.chunks().iter().filter(|c| c.doc == n).count()
    }

    /// Whether the store's library is of another build (nothing can be added until a switch
    /// begins).
    pub fn is_mismatched(&self) -> bool {
        self.mismatched.get()
    }

    /// Stores a document (stamped with the library's build) in one step, then makes it
    /// searchable; one already stored under the same id is replaced. On error nothing changed.
    pub async fn add(&self, mut doc: StoredDocument) -> Result<()> {
        if self.mismatched.get() {
            return Err(crate::Error::Mismatch);
        }
        doc.meta.build = Some(self.info());
        self.store.put_document(&doc).await?;
        let StoredDocument {
            meta,
            chunks,
            vectors,
            ..
        } = doc;
        let mut corpus = self.corpus.borrow_mut();
        // A replacement (re-embedded for a switch, or stale and now current) leaves no copy.
        corpus.remove_document(&meta.id)?;
        corpus.add_document(meta, chunks, vectors)?;
        Ok(())
    }

    /// Deletes a document from the store, then from the corpus, and saves the index.
    pub async fn delete(&self, id: &str) -> Result<()> {
        self.store.delete_document(id).await?;
        self.corpus.borrow_mut().remove_document(id)?;
        self.save_index().await
    }

    /// Removes everything: documents, pending files, the saved index, the build.
    pub async fn clear(&self) -> Result<()> {
        self.store.clear().await?;
        let info = self.info();
        *self.corpus.borrow_mut() = Corpus::empty(info);
        self.mismatched.set(false);
        Ok(())
    }

    /// Saves the search index, so the next visit opens without rebuilding it.
    pub async fn save_index(&self) -> Result<()> {
        let bytes = self.corpus.borrow().to_bytes()?;
        self.store.set_index(&bytes).await
    }

    /// Starts moving the library to `info` (another model or chunker): the corpus starts
    /// empty with the new build, every stored document stays stored and is returned, to be
    /// re-embedded and [`add`](Self::add)ed (which replaces it). Nothing is deleted.
    pub async fn begin_switch(&self, info: &BuildInfo) -> Result<Vec<DocumentMeta>> {
        begin_switch(&self.store, info).await?;
        *self.corpus.borrow_mut() = Corpus::empty(info.clone());
        self.mismatched.set(false);
        let stale = self.store.documents().await?;
        Ok(stale)
    }

    /// Ends a switch once no document of the old build is left (true when the library is
    /// wholly of its build).
    pub async fn finish_switch(&self) -> Result<bool> {
        finish_switch(&self.store).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::Chunk;
    use crate::embed::fake::FakeEncoder;
    use crate::embed::Encoder;
    use crate::pdf::Report;
    use crate::retrieve::Search;
    use crate::store::MemStore;

    fn info(model: &str) -> BuildInfo {
        BuildInfo {
            model_id: model.into(),
            dim: FakeEncoder::DIM,
            chunk_params: Default::default(),
        }
    }

    /// A stored document of `texts` (one chunk each), embedded with the fake encoder.
    fn document(id: &str, texts: &[&str], model: &str) -> StoredDocument {
        let chunks: Vec<Chunk> = texts
            .iter()
            .map(|t| Chunk {
                page: 1,
                char_start: 0,
                char_end: t.chars().count(),
                heading_path: Vec::new(),
                text: (*t).into(),
            })
            .collect();
        let mut encoder = FakeEncoder::new(model);
        let vectors = texts.iter().map(|t| encoder.embed(t)).collect();
        StoredDocument {
            meta: DocumentMeta {
                build: None,
                id: id.into(),
                name: format!("{id}.pdf"),
                title: None,
                pages: 1,
                report: Report::Complete,
            },
            pdf: format!("%PDF {id}").into_bytes(),
            chunks,
            vectors,
            pages: Vec::new(),
        }
    }

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        pollster::block_on(f)
    }

    #[test]
    fn add_search_delete_and_reopen() {
        let (lib, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
        run(lib.add(document("a", &["contracts and clauses"], "m1"))).unwrap();
        run(lib.add(document("b", &["regulations for boats"], "m1"))).unwrap();
        assert_eq!(lib.name_of("b").as_deref(), Some("b.pdf"));
        assert_eq!(lib.chunk_count("a"), 1);
        let query = FakeEncoder::new("m1").embed("boats");
        let hits = lib
            .corpus()
            .search(&Search::new("boats", Some(&query)).depth(5));
        let corpus = lib.corpus();
        let top = &corpus.documents()[corpus.chunks()[hits[0].chunk as usize].doc as usize];
        assert_eq!(top.id, "b");
        drop(corpus);
        // The same id again replaces, never duplicates.
        run(lib.add(document("a", &["contracts, clauses and annexes"], "m1"))).unwrap();
        assert_eq!(lib.documents().len(), 2);
        run(lib.delete("a")).unwrap();
        assert_eq!(lib.documents().len(), 1);
        run(lib.save_index()).unwrap();
        let store = lib.into_store();
        let (lib, opening) = run(Library::open(store, &info("m1"))).unwrap();
        assert_eq!(
            opening,
            Opening::Ready {
                restored: true,
                stale: Vec::new(),
                damaged: Vec::new()
            }
        );
        assert_eq!(lib.documents()[0].build, Some(info("m1")), "stamped");
    }

    #[test]
    fn another_model_is_a_mismatch_and_nothing_is_added_until_a_switch() {
        let (lib, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
        run(lib.add(document("a", &["alpha"], "m1"))).unwrap();
        let store = lib.into_store();
        let (lib, opening) = run(Library::open(store, &info("m2"))).unwrap();
        assert_eq!(opening, Opening::Mismatch { stored: info("m1") });
        assert!(lib.is_mismatched());
        assert!(run(lib.add(document("b", &["beta"], "m2"))).is_err());
        assert_eq!(
            run(lib.store().documents()).unwrap().len(),
            1,
            "nothing lost"
        );
        let stale = run(lib.begin_switch(&info("m2"))).unwrap();
        assert_eq!(stale.len(), 1);
        run(lib.add(document("a", &["alpha"], "m2"))).unwrap();
        assert!(run(lib.finish_switch()).unwrap());
        assert_eq!(lib.documents().len(), 1);
    }

    #[test]
    fn a_switch_interrupted_loses_nothing_and_goes_on() {
        let (lib, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
        for id in ["a", "b", "c"] {
            run(lib.add(document(id, &[id], "m1"))).unwrap();
        }
        let stale = run(lib.begin_switch(&info("m2"))).unwrap();
        assert_eq!(stale.len(), 3);
        run(lib.add(document("a", &["a"], "m2"))).unwrap();
        // The tab closes here.
        let store = lib.into_store();
        let (lib, opening) = run(Library::open(store, &info("m2"))).unwrap();
        let Opening::Ready { stale, .. } = opening else {
            panic!("{opening:?}");
        };
        let mut ids: Vec<&str> = stale.iter().map(|d| d.id.as_str()).collect();
        ids.sort();
        assert_eq!(ids, ["b", "c"], "the rest waits, with its PDF");
        assert!(run(lib.store().pdf("b")).unwrap().is_some());
        assert_eq!(lib.documents().len(), 1);
        assert!(!run(lib.finish_switch()).unwrap());
        for id in ["b", "c"] {
            run(lib.add(document(id, &[id], "m2"))).unwrap();
        }
        assert!(run(lib.finish_switch()).unwrap());
        assert_eq!(lib.documents().len(), 3);
    }

    #[test]
    fn clear_empties_store_and_corpus() {
        let (lib, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
        run(lib.add(document("a", &["alpha"], "m1"))).unwrap();
        run(lib.clear()).unwrap();
        assert!(lib.documents().is_empty());
        assert!(run(lib.store().documents()).unwrap().is_empty());
        assert!(run(lib.store().meta()).unwrap().is_none());
    }

    #[test]
    fn the_fake_encoder_is_deterministic_and_model_specific() {
        let mut a = FakeEncoder::new("m1");
        assert_eq!(
            a.embed("same text"),
            FakeEncoder::new("m1").embed("same text")
        );
        assert_ne!(
            a.embed("same text"),
            FakeEncoder::new("m2").embed("same text")
        );
        let batch = crate::tokenize::EncodedBatch {
            batch: 1,
            seq: 2,
            input_ids: vec![5, 6],
            attention_mask: vec![1, 1],
            token_type_ids: vec![0, 0],
        };
        let out = run(a.encode(&batch)).unwrap();
        assert_eq!(out.len(), 2 * FakeEncoder::DIM);
    }
}
