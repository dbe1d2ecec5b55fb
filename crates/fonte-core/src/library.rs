//! A library: a [`Store`] and the searchable [`Corpus`] built from it, kept in step. Every
//! operation writes the store first and changes the corpus only once the store has it, so a
//! failure (a full quota, a closed tab) leaves the two agreeing; nothing is deleted before its
//! replacement is stored ([`Library::begin_switch`]).
//!
//! Single-threaded by design (browser futures are not `Send`): the methods take `&self`, the
//! corpus sits in a `RefCell`, and no borrow of it is held across an `.await`.
//!
//! ```
//! use fonte_core::search::corpus::BuildInfo;
//! use fonte_core::library::{Library, Opening};
//! use fonte_core::store::MemStore;
//! let info = BuildInfo { model_id: "m".into(), dim: 3, chunk_params: Default::default() };
//! let (library, opening) = pollster::block_on(Library::open(MemStore::default(), &info)).unwrap();
//! assert!(matches!(opening, Opening::Ready { .. }));
//! assert_eq!(library.documents().len(), 0);
//! ```

use std::cell::{Ref, RefCell};

use crate::search::corpus::{BuildInfo, Corpus, DocumentMeta};
use crate::store::{begin_switch, finish_switch, open_library, Opened, Store, StoredDocument};
use crate::DocId;
use crate::Result;

mod provenance;
mod versions;

pub use versions::{propose_versions, Proposal};

/// Now, in milliseconds since 1970 (UTC): when a document is added.
fn now_ms() -> u64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

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
    // Whether the corpus changed since its index was last saved or restored: a batch that
    // stored nothing (duplicates, a full storage) writes nothing, so a full quota is not
    // reported twice.
    unsaved: std::cell::Cell<bool>,
    // Bumped whenever the searchable documents change, so what is derived from them (the
    // abstention threshold) is computed again.
    generation: std::cell::Cell<u64>,
    // The store's `LibraryMeta::from_bundles`, kept here so the queue can tell at once
    // whether a dropped file replaces a bundle's copy (`provenance`).
    from_bundles: RefCell<std::collections::BTreeMap<DocId, String>>,
}

impl<S: Store> Library<S> {
    /// Opens the library in `store` for a build with `info`.
    pub async fn open(store: S, info: &BuildInfo) -> Result<(Self, Opening)> {
        let (corpus, opening, mismatched, unsaved) = match open_library(&store, info).await? {
            Opened::Ready {
                corpus,
                restored,
                stale,
                damaged,
            } => {
                // Rebuilt from the stored documents: saved, so the next visit need not.
                let unsaved = !restored && !corpus.documents().is_empty();
                (
                    *corpus,
                    Opening::Ready {
                        restored,
                        stale,
                        damaged,
                    },
                    false,
                    unsaved,
                )
            }
            Opened::Mismatch { stored } => (
                Corpus::empty(info.clone()),
                Opening::Mismatch {
                    stored: stored.target().clone(),
                },
                true,
                false,
            ),
        };
        let from_bundles = store
            .meta()
            .await?
            .map(|m| m.from_bundles)
            .unwrap_or_default();
        let library = Self {
            from_bundles: RefCell::new(from_bundles),
            store,
            corpus: RefCell::new(corpus),
            mismatched: std::cell::Cell::new(mismatched),
            unsaved: std::cell::Cell::new(unsaved),
            generation: std::cell::Cell::new(0),
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

    /// Gives the corpus back (closing the library), e.g. to write it to a file.
    pub fn into_corpus(self) -> Corpus {
        self.corpus.into_inner()
    }

    /// How many times the searchable documents changed since the library was opened.
    pub fn generation(&self) -> u64 {
        self.generation.get()
    }

    fn changed(&self) {
        self.generation.set(self.generation.get() + 1);
    }

    /// The searchable corpus. Do not hold the borrow across an `.await`.
    pub fn corpus(&self) -> Ref<'_, Corpus> {
        self.corpus.borrow()
    }

    /// Sets how lexical and dense rankings are fused (per model).
    pub fn set_fusion(&self, fusion: crate::search::retrieve::Fusion) {
        self.corpus.borrow_mut().set_fusion(fusion);
    }

    /// Ranks as measured for the library's model ([`Corpus::prepare_ranking`]): each
    /// passage's neighbours, when the saved index lacks them, are begun here and computed a
    /// slice at a time by [`build_neighbours`](Self::build_neighbours); searches rank without
    /// them until then.
    pub fn rank_for(&self, model: &crate::embed::ModelManifest) {
        self.corpus.borrow_mut().prepare_ranking(model);
    }

    /// Computes part of the neighbours [`rank_for`](Self::rank_for) began (about `pairs`
    /// pairs of passages). True when none are left to compute; the index is then worth
    /// saving ([`save_index`](Self::save_index)), so the next visit need not compute them.
    pub fn build_neighbours(&self, pairs: usize) -> bool {
        let mut corpus = self.corpus.borrow_mut();
        if corpus.build_neighbours(0) {
            return true;
        }
        let done = corpus.build_neighbours(pairs);
        if done && !corpus.documents().is_empty() {
            self.unsaved.set(true);
        }
        done
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
    /// searchable; one already stored under the same id is replaced. On error nothing changed
    /// (a provisional copy of it stays provisional).
    pub async fn add(&self, mut doc: StoredDocument) -> Result<()> {
        if self.mismatched.get() {
            return Err(crate::Error::Mismatch);
        }
        doc.meta.build = Some(self.info());
        let earlier = {
            let corpus = self.corpus.borrow();
            corpus
                .document_number(&doc.meta.id)
                .filter(|&n| !corpus.is_provisional(n))
                .map(|n| corpus.documents()[n as usize].about.clone())
        };
        if let Some(earlier) = earlier {
            doc.meta.about = earlier.carried_into(std::mem::take(&mut doc.meta.about));
        }
        doc.meta.about.added.get_or_insert_with(now_ms);
        self.store.put_document(&doc).await?;
        let StoredDocument {
            meta,
            chunks,
            vectors,
            ..
        } = doc;
        self.unsaved.set(true);
        self.changed();
        let mut corpus = self.corpus.borrow_mut();
        if let Some(n) = corpus.document_number(&meta.id) {
            if corpus.is_provisional(n)
                && corpus.chunks().iter().filter(|c| c.doc == n).count() == chunks.len()
            {
                // Searchable since it was read: the stored vectors are the ones it was given
                // (set again, so the corpus holds exactly what the store does).
                corpus.set_vectors(n, 0, &vectors)?;
                corpus.set_about(&meta.id, meta.about);
                return corpus.finish_document(n);
            }
        }
        // A replacement (re-embedded for a switch, or stale and now current) leaves no copy.
        corpus.remove_document(&meta.id)?;
        corpus.add_document(meta, chunks, vectors)?;
        Ok(())
    }

    /// Makes a document searchable by its text while it is still being embedded: its chunks
    /// join the BM25 index now and each vector the dense one as [`Provisional::embedded`]
    /// gives it; [`add`](Self::add) then stores it and ends the provisional state. Nothing is
    /// stored here, and the returned guard takes the document out of the corpus again if it is
    /// dropped before `add` (cancelled, failed, the storage full). `None` when a searchable
    /// copy of it is already there (re-embedded for a switch: the old copy serves until the
    /// new one is stored) or the library is mismatched.
    pub fn begin(
        &self,
        meta: &DocumentMeta,
        chunks: &[crate::search::chunk::Chunk],
    ) -> Option<Provisional<'_, S>> {
        if self.mismatched.get() {
            return None;
        }
        let mut meta = meta.clone();
        meta.build = Some(self.info());
        let id = meta.id.clone();
        let mut corpus = self.corpus.borrow_mut();
        if corpus.document_number(&id).is_some() {
            return None;
        }
        corpus.begin_document(meta, chunks.to_vec()).ok()?;
        self.changed();
        Some(Provisional { library: self, id })
    }

    /// Deletes a document from the store, then from the corpus, and saves the index.
    pub async fn delete(&self, id: &str) -> Result<()> {
        self.store.delete_document(id).await?;
        self.corpus.borrow_mut().remove_document(id)?;
        self.unsaved.set(true);
        self.changed();
        self.save_index().await
    }

    /// Removes everything: documents, pending files, the saved index, the build.
    pub async fn clear(&self) -> Result<()> {
        self.store.clear().await?;
        let info = self.info();
        *self.corpus.borrow_mut() = Corpus::empty(info);
        self.mismatched.set(false);
        self.changed();
        Ok(())
    }

    /// Saves the search index, so the next visit opens without rebuilding it; nothing is
    /// written when it did not change since it was last saved or restored.
    pub async fn save_index(&self) -> Result<()> {
        if !self.unsaved.get() {
            return Ok(());
        }
        let bytes = self.corpus.borrow().to_bytes()?;
        self.store.set_index(&bytes).await?;
        self.unsaved.set(false);
        Ok(())
    }

    /// Starts moving the library to `info` (another model or chunker): the corpus starts
    /// empty with the new build, every stored document stays stored and is returned, to be
    /// re-embedded and [`add`](Self::add)ed (which replaces it). Nothing is deleted.
    pub async fn begin_switch(&self, info: &BuildInfo) -> Result<Vec<DocumentMeta>> {
        begin_switch(&self.store, info).await?;
        *self.corpus.borrow_mut() = Corpus::empty(info.clone());
        self.mismatched.set(false);
        self.unsaved.set(true);
        self.changed();
        let stale = self.store.documents().await?;
        Ok(stale)
    }

    /// Ends a switch once no document of the old build is left (true when the library is
    /// wholly of its build).
    pub async fn finish_switch(&self) -> Result<bool> {
        finish_switch(&self.store).await
    }
}

/// A document searchable by its text before it is stored ([`Library::begin`]).
pub struct Provisional<'a, S: Store> {
    library: &'a Library<S>,
    id: DocId,
}

impl<S: Store> Provisional<'_, S> {
    /// Chunks `first..first + vectors.len()` of the document have their vectors: searchable
    /// by vector from now on. A document deleted meanwhile is ignored.
    pub fn embedded(&self, first: usize, vectors: &[Vec<f32>]) -> Result<()> {
        let mut corpus = self.library.corpus.borrow_mut();
        match corpus.document_number(&self.id) {
            Some(n) if corpus.is_provisional(n) => corpus.set_vectors(n, first, vectors),
            _ => Ok(()),
        }
    }
}

impl<S: Store> Drop for Provisional<'_, S> {
    fn drop(&mut self) {
        // Stored by `add` (no longer provisional): stays. Otherwise its text leaves the
        // search with it; nothing of it was stored. Removing only fails on a corpus that
        // could not be rebuilt, which the next open rebuilds from the store anyway.
        let Ok(mut corpus) = self.library.corpus.try_borrow_mut() else {
            return;
        };
        if let Some(n) = corpus.document_number(&self.id) {
            if corpus.is_provisional(n) {
                let _ = corpus.remove_document(&self.id);
                self.library.changed();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::fake::FakeEncoder;
    use crate::embed::Encoder;
    use crate::search::chunk::Chunk;
    use crate::search::retrieve::Search;
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
            meta: DocumentMeta::one_page(id),
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
    fn neighbours_computed_for_the_ranking_are_saved_and_not_computed_again() {
        // A model with a language axis ranks with each passage's neighbours.
        let mut model = crate::embed::testutil::minilm_manifest();
        model.dim = FakeEncoder::DIM;
        model.language_direction = (0..FakeEncoder::DIM).map(|i| i as f32).collect();
        let (lib, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
        let texts = [
            "contracts and clauses",
            "annexes",
            "signatures",
            "a schedule",
        ];
        run(lib.add(document("a", &texts, "m1"))).unwrap();
        run(lib.save_index()).unwrap();
        // The saved index was written before the ranking asked for them: begun now, computed
        // a slice at a time, kept with every change after, and worth saving again.
        lib.rank_for(&model);
        assert!(!lib.corpus().has_neighbours());
        assert!(!lib.build_neighbours(1), "one passage's worth at a time");
        while !lib.build_neighbours(1) {}
        assert!(lib.corpus().has_neighbours());
        run(lib.store().set_index(b"marked")).unwrap();
        run(lib.save_index()).unwrap();
        let saved = Corpus::from_bytes(&run(lib.store().index()).unwrap().unwrap()).unwrap();
        assert!(saved.has_neighbours(), "saved once complete");
        run(lib.add(document("b", &["regulations for boats"], "m1"))).unwrap();
        lib.rank_for(&model);
        assert!(
            lib.build_neighbours(0),
            "kept up to date, nothing to compute"
        );
        run(lib.save_index()).unwrap();
        let (lib, _) = run(Library::open(lib.into_store(), &info("m1"))).unwrap();
        lib.rank_for(&model);
        assert!(lib.build_neighbours(0), "restored with the saved index");
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
    fn a_provisional_document_survives_other_documents_coming_and_going() {
        let (lib, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
        run(lib.add(document("a", &["contracts and clauses"], "m1"))).unwrap();
        let c = document("c", &["boats on rivers", "harbours"], "m1");
        let provisional = lib.begin(&c.meta, &c.chunks).expect("begun");
        assert!(
            lib.begin(&c.meta, &c.chunks).is_none(),
            "already searchable"
        );
        provisional.embedded(0, &c.vectors[..1]).unwrap();
        // A bundle's document arrives, and the first one is deleted, meanwhile.
        run(lib.add(document("b", &["regulations"], "m1"))).unwrap();
        run(lib.delete("a")).unwrap();
        let corpus = lib.corpus();
        let n = corpus.document_number("c").unwrap();
        assert!(corpus.is_provisional(n));
        let chunks: Vec<u32> = (0..corpus.chunks().len() as u32)
            .filter(|&i| corpus.chunks()[i as usize].doc == n)
            .collect();
        assert!(corpus.has_vector(chunks[0]) && !corpus.has_vector(chunks[1]));
        let hits = corpus.search(&Search::new("harbours", Some(&c.vectors[1])).depth(5));
        assert_eq!(hits[0].chunk, chunks[1]);
        assert_eq!(hits[0].dense_rank, None, "found by its words alone");
        drop(corpus);
        // Saved while provisional: not in the saved index (not stored yet).
        run(lib.save_index()).unwrap();
        let saved = Corpus::from_bytes(&run(lib.store().index()).unwrap().unwrap()).unwrap();
        assert_eq!(saved.documents().len(), 1);
        provisional.embedded(1, &c.vectors[1..]).unwrap();
        run(lib.add(c)).unwrap();
        drop(provisional);
        assert_eq!(lib.documents().len(), 2, "stored: the guard leaves it");
        let corpus = lib.corpus();
        assert!(!corpus.is_provisional(corpus.document_number("c").unwrap()));
    }

    #[test]
    fn the_index_is_written_only_when_the_corpus_changed() {
        let (lib, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
        run(lib.add(document("a", &["contracts and clauses"], "m1"))).unwrap();
        run(lib.save_index()).unwrap();
        // Marked, to see whether the next saves write.
        run(lib.store().set_index(b"marked")).unwrap();
        let c = document("c", &["boats on rivers"], "m1");
        drop(lib.begin(&c.meta, &c.chunks));
        run(lib.save_index()).unwrap();
        assert_eq!(
            run(lib.store().index()).unwrap().as_deref(),
            Some(&b"marked"[..])
        );
        run(lib.add(c)).unwrap();
        run(lib.save_index()).unwrap();
        let saved = Corpus::from_bytes(&run(lib.store().index()).unwrap().unwrap()).unwrap();
        assert_eq!(saved.documents().len(), 2);
    }

    #[test]
    fn a_provisional_document_dropped_before_it_is_stored_leaves_the_search() {
        let (lib, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
        let c = document("c", &["boats on rivers"], "m1");
        drop(lib.begin(&c.meta, &c.chunks));
        assert!(lib.documents().is_empty());
        assert!(lib.corpus().chunks().is_empty());
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
        let batch = crate::embed::tokenize::EncodedBatch {
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
