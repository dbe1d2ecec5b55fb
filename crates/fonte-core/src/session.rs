//! One library at work: the [`Library`] (store and searchable corpus), its ingestion [`Queue`],
//! the platform's [`Services`] for the library's model (reading, embedding), search, the
//! abstention threshold and asking. The page and `fonte` drive the same session: the page maps
//! its events to signals, the CLI prints them. Typed events and the one [`Operation`] under way
//! are all a front end needs; the session composes no text for anyone.

pub mod fake;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::answer::abstain::{Threshold, PROBES};
use crate::answer::ask::{calibrate, AskServices};
use crate::answer::translate::Translation;
use crate::embed::ModelManifest;
use crate::ingest::queue::{self, Added, File, IngestEvent, Queue};
use crate::library::{Library, Opening};
use crate::search::corpus::{BuildInfo, Corpus, DocumentMeta};
use crate::search::lang::Lang;
use crate::search::retrieve::{Hit, Search};
use crate::share::bundle::{read, Bundle, Imported, Meta};
use crate::store::Store;
use crate::{DocId, Error, Result};

/// Results looked at for a document still embedding that a search should move up the queue
/// (one the first few results come from, not any passage that shares a word).
const PREFER_WITHIN: usize = 3;

/// What the platform gives a session for its library's model: the queue's reading and passage
/// embedding, and the query embedding that search, abstention and asking need.
///
/// Browser futures are not `Send`, so neither are this trait's.
#[allow(async_fn_in_trait)]
pub trait Services: queue::Services {
    /// The model these services embed with.
    fn model(&self) -> &ModelManifest;
    /// The query vector of `text`.
    async fn embed_query(&self, text: &str) -> Result<Vec<f32>, Self::Error>;
    /// Whether a query can be embedded now without loading the model first (a front end
    /// shows the word matches at once while it loads).
    fn query_ready(&self) -> bool {
        true
    }
    /// `question` in `to` by translation models on this machine
    /// ([`AskServices::translate_here`]); none by default.
    async fn translate_here(
        &self,
        _question: &str,
        _to: Lang,
    ) -> Result<Option<Translation>, Self::Error> {
        Ok(None)
    }
}

/// The one long operation a session may be in; a front end shows it and holds back what
/// conflicts with it (a model switch while importing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Nothing under way.
    Idle,
    /// Files are being read and embedded.
    Ingesting,
    /// A bundle is being imported.
    Importing,
    /// The library's documents are being embedded again with another model.
    Reindexing,
}

/// The probes' query vectors for one model, and the threshold they gave for one generation of
/// the library.
#[derive(Default)]
struct Calibration {
    probes: Option<(String, Rc<Vec<Vec<f32>>>)>,
    threshold: Option<(String, u64, Option<Threshold>)>,
}

/// A library, its queue and its model's services.
pub struct Session<S: Store, X: Services> {
    library: Library<S>,
    queue: Queue,
    // Replaced by a model switch ([`Session::set_services`]).
    services: RefCell<Rc<X>>,
    calibration: RefCell<Calibration>,
    operation: Cell<Operation>,
    // A model switch began and its documents are not all moved yet.
    reindexing: Cell<bool>,
}

impl<S: Store, X: Services> Session<S, X> {
    /// Opens the library in `store` for the build `info` (the services' model and a chunker).
    pub async fn open(store: S, info: &BuildInfo, services: X) -> Result<(Self, Opening)> {
        let (library, opening) = Library::open(store, info).await?;
        // A switch a closed tab interrupted goes on with the documents not moved yet.
        let reindexing = matches!(&opening, Opening::Ready { stale, .. } if !stale.is_empty());
        let session = Self {
            library,
            queue: Queue::new(),
            services: RefCell::new(Rc::new(services)),
            calibration: RefCell::default(),
            operation: Cell::new(Operation::Idle),
            reindexing: Cell::new(reindexing),
        };
        Ok((session, opening))
    }

    /// The library (store and corpus).
    pub fn library(&self) -> &Library<S> {
        &self.library
    }

    /// Closes the session, giving the library back.
    pub fn into_library(self) -> Library<S> {
        self.library
    }

    /// The ingestion queue (to prefer, cancel or unlock a file).
    pub fn queue(&self) -> &Queue {
        &self.queue
    }

    /// The services of the library's model.
    pub fn services(&self) -> Rc<X> {
        self.services.borrow().clone()
    }

    /// Uses `services` (another model's) from now on.
    pub fn set_services(&self, services: X) {
        *self.services.borrow_mut() = Rc::new(services);
    }

    /// The operation under way.
    pub fn operation(&self) -> Operation {
        self.operation.get()
    }

    /// Queues files ([`Queue::add`]): duplicates of stored or queued documents are skipped.
    pub fn add(&self, files: Vec<File>) -> Result<Vec<Added>> {
        self.queue.add(&self.library, files)
    }

    /// Reads, embeds and stores every queued file (files added meanwhile too), reporting to
    /// `on`; returns at once if already ingesting. The services are those the run started
    /// with: a model switch waits for the run.
    pub async fn ingest(&self, on: &dyn Fn(IngestEvent<X::Error>)) {
        if self.queue.is_running() {
            return;
        }
        let services = self.services();
        self.operation.set(if self.reindexing.get() {
            Operation::Reindexing
        } else {
            Operation::Ingesting
        });
        self.queue.run(&self.library, &*services, on).await;
        if self.queue.is_empty() {
            self.reindexing.set(false);
        }
        self.operation.set(Operation::Idle);
    }

    /// Moves the library to `services`' model with the chunker of `info`: the corpus starts
    /// empty and every stored document is returned, to be queued again from its stored PDF
    /// ([`Queue::replace`]); each replaces its old copy only once re-embedded, so nothing is
    /// deleted before its replacement is stored. Refused while another operation is under way.
    pub async fn begin_switch(&self, info: &BuildInfo, services: X) -> Result<Vec<DocumentMeta>> {
        if self.operation.get() != Operation::Idle || self.queue.is_running() {
            return Err(Error::Busy);
        }
        // The library first: if its store refuses, the session keeps its model.
        let stale = self.library.begin_switch(info).await?;
        self.set_services(services);
        self.reindexing.set(true);
        Ok(stale)
    }

    /// Removes every document, pending file and the saved index; files waiting are dropped.
    pub async fn clear(&self) -> Result<()> {
        self.queue.forget();
        self.reindexing.set(false);
        self.library.clear().await
    }

    /// Imports a bundle (validated whole first; only adds), `on(done, total)` per document.
    pub async fn import(&self, bytes: &[u8], on: &mut dyn FnMut(usize, usize)) -> Result<Imported> {
        self.import_bundle(read(bytes)?, on).await
    }

    /// [`Session::import`] of a bundle already validated (by the reader worker, or a hosted
    /// one read by ranges). An import only adds, one document per transaction, so it may run
    /// beside ingestion (a document both bring is stored once: the later replaces the
    /// earlier); the operation shown is `Importing` only when nothing else was under way.
    pub async fn import_bundle(
        &self,
        bundle: Bundle,
        on: &mut dyn FnMut(usize, usize),
    ) -> Result<Imported> {
        let shown = self.operation.get() == Operation::Idle;
        if shown {
            self.operation.set(Operation::Importing);
        }
        let imported = self.library.import_bundle(bundle, on).await;
        if shown && self.operation.get() == Operation::Importing {
            self.operation.set(Operation::Idle);
        }
        imported
    }

    /// The bundle of the documents `ids` (every searchable one when `None`).
    pub async fn export(&self, ids: Option<&[DocId]>, meta: &Meta) -> Result<Vec<u8>> {
        self.library.export(ids, meta).await
    }

    /// The hybrid ranking of `query` (documents `scope` only, when not empty; superseded
    /// versions only with `all_versions`), ranked as the library's model ranks. A document
    /// still embedding among the first results is what the person is looking for: the queue
    /// embeds it next, so it is searchable by meaning soonest.
    pub async fn search(
        &self,
        query: &str,
        scope: &[DocId],
        all_versions: bool,
    ) -> Result<Vec<Hit>, X::Error> {
        let query = query.trim();
        if query.is_empty() || self.library.corpus().chunks().is_empty() {
            return Ok(Vec::new());
        }
        let vector = self.services().embed_query(query).await?;
        Ok(self.ranked(query, Some(&vector), scope, all_versions))
    }

    /// The passages that hold `query`'s words (BM25 alone): no model needed, so a front end
    /// can show them at once while the query model loads, then [`Session::search`]'s ranking.
    pub fn search_words(&self, query: &str, scope: &[DocId], all_versions: bool) -> Vec<Hit> {
        let query = query.trim();
        if query.is_empty() || self.library.corpus().chunks().is_empty() {
            return Vec::new();
        }
        self.ranked(query, None, scope, all_versions)
    }

    /// Whether [`Session::search`] would wait for the query model to load.
    pub fn query_ready(&self) -> bool {
        self.services().query_ready()
    }

    fn ranked(
        &self,
        query: &str,
        vector: Option<&[f32]>,
        scope: &[DocId],
        all_versions: bool,
    ) -> Vec<Hit> {
        self.with_corpus(|corpus| {
            let numbers: Vec<u32> = scope
                .iter()
                .filter_map(|id| corpus.document_number(id))
                .collect();
            let scope = (!scope.is_empty()).then_some(numbers.as_slice());
            let hits = corpus.search(
                &Search::new(query, vector)
                    .scope(scope)
                    .all_versions(all_versions),
            );
            if let Some(doc) = corpus.still_embedding_among(&hits, PREFER_WITHIN) {
                self.queue.prefer(&corpus.documents()[doc as usize].id);
            }
            hits
        })
    }

    /// The library's abstention threshold for its model, calibrated again whenever its
    /// documents changed; `None` while it is too small to tell.
    pub async fn threshold(&self) -> Result<Option<Threshold>, X::Error> {
        let services = self.services();
        let model = services.model().id.clone();
        let generation = self.library.generation();
        if let Some((m, g, t)) = &self.calibration.borrow().threshold {
            if *m == model && *g == generation {
                return Ok(*t);
            }
        }
        let known = self.calibration.borrow().probes.clone();
        let probes = match known {
            Some((m, p)) if m == model => p,
            _ => {
                // 32 short queries, once per model and session (about a second on one core
                // in the browser).
                let mut vectors = Vec::with_capacity(PROBES.len());
                for probe in PROBES {
                    vectors.push(services.embed_query(probe).await?);
                }
                let vectors = Rc::new(vectors);
                self.calibration.borrow_mut().probes = Some((model.clone(), vectors.clone()));
                vectors
            }
        };
        let threshold = self.with_corpus(|c| calibrate(c, &probes));
        // The generation read now: documents may have come while the probes were embedded.
        let generation = self.library.generation();
        self.calibration.borrow_mut().threshold = Some((model, generation, threshold));
        Ok(threshold)
    }

    /// Runs `f` on the corpus ranked for the library's model; the borrow never spans an await.
    pub fn with_corpus<R>(&self, f: impl FnOnce(&Corpus) -> R) -> R {
        self.library.rank_for(self.services().model());
        f(&self.library.corpus())
    }
}

impl<S: Store, X: Services> AskServices for Session<S, X> {
    type Error = X::Error;

    async fn embed_query(&self, text: &str) -> Result<Vec<f32>, X::Error> {
        self.services().embed_query(text).await
    }

    async fn threshold(&self) -> Result<Option<Threshold>, X::Error> {
        Session::threshold(self).await
    }

    fn with_corpus<R>(&self, f: impl FnOnce(&Corpus) -> R) -> R {
        Session::with_corpus(self, f)
    }

    fn query_ready(&self) -> bool {
        Session::query_ready(self)
    }

    async fn translate_here(
        &self,
        question: &str,
        to: Lang,
    ) -> Result<Option<Translation>, X::Error> {
        self.services().translate_here(question, to).await
    }
}
