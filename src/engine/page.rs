//! The [`Engine`]: the page's core session, opened on one library, and what the components
//! ask of it (search, passage marks, documents, storage). Each event of the work it starts
//! goes to [`super::rows`].

use std::rc::Rc;

use fonte_core::ingest::queue::Queue;
use fonte_core::library::Library;
use fonte_core::session::Session;
use fonte_core::store::Store;
use gloo::timers::future::TimeoutFuture;
use leptos::prelude::*;

use super::rows::{now_ms, Rows};
use super::ModelService;
use crate::models::Model;
use crate::platform::idb::{DbEvent, IdbStore};
use crate::platform::libraries::Entry;
use crate::state::{Notice, ResultRow, Ui};
use crate::AppResult;

/// Where the model and onnxruntime-web are served from (same origin as the app).
pub const ORT_DIR: &str = "ort/";
/// The page's session: its IndexedDB library and its model's services.
pub type PageSession = Session<IdbStore, ModelService>;

/// The library and everything that works on it.
pub struct Engine {
    pub(super) ui: Ui,
    // The library, its queue and its model's reader and embedder (replaced by `switch_model`).
    pub(super) session: PageSession,
    pub(super) models: Vec<Model>,
    // What the page shows of it.
    pub(super) rows: Rows,
    // What the page holds of dropped files (`queue`): bytes in the queue, files waiting to be
    // read, and a count bumped by a cancel (waiting files of an earlier count are dropped).
    pub(super) held: std::cell::Cell<f64>,
    pub(super) waiting: std::cell::Cell<usize>,
    pub(super) cancels: std::cell::Cell<u64>,
    // Which library this is, and for a hosted one its bundle (opened on the first PDF shown).
    pub(super) entry: Entry,
    pub(super) hosted: async_lock::Mutex<Option<crate::platform::hosted::Hosted>>,
}

/// Lets the browser paint and handle input before the next piece of work.
pub(super) async fn yield_now() {
    TimeoutFuture::new(0).await;
}

impl Engine {
    /// Opens the library `entry`: the saved index if current, else rebuilt from the stored
    /// chunks and vectors; a hosted library not stored yet is downloaded first. No embedding
    /// happens here.
    pub async fn open(ui: Ui, mut entry: Entry) -> AppResult<Rc<Self>> {
        let models = crate::models::installed().await?;
        let mut hosted = None;
        if entry.corpus.is_some() && entry.version.is_none() {
            hosted = Some(super::hosted::fetch(ui, &mut entry, &models).await?);
        }
        let started = now_ms();
        let on_db = move |event| {
            ui.notice.set(Some(match event {
                DbEvent::Blocked => Notice::DbBlocked,
                DbEvent::ClosedForUpgrade => Notice::DbClosedForUpgrade,
            }));
        };
        let store = IdbStore::open_with(&entry.db, Rc::new(on_db)).await?;
        let stored = store.meta().await?;
        let model = crate::models::for_library(
            &models,
            stored.as_ref().map(|m| m.target().model_id.as_str()),
        )
        .clone();
        let info = model.info();
        let services = ModelService::new(model.clone(), ui);
        let (session, opening) = Session::open(store, &info, services).await?;
        session.library().rank_for(&model.manifest);
        let engine = Rc::new(Self {
            ui,
            session,
            models,
            rows: Rows::new(ui),
            held: Default::default(),
            waiting: Default::default(),
            cancels: Default::default(),
            entry,
            hosted: async_lock::Mutex::new(hosted),
        });
        let stale = engine.rows.opened(
            opening,
            &engine.library().corpus(),
            &engine.shown_provenance(),
            started,
        );
        ui.models.set(engine.models.clone());
        ui.model.set(engine.model().manifest.id);
        let pending = engine.library().store().pending().await?;
        ui.pending
            .set(pending.into_iter().map(|p| (p.id, p.name)).collect());
        // A model switch that a closed tab interrupted goes on: the documents not moved yet
        // are still stored with their PDFs, and are re-embedded now.
        if !stale.is_empty() {
            engine.requeue_stale(stale).await?;
        }
        engine.keep_neighbours();
        Ok(engine)
    }

    /// Which documents' rows say their text came from a bundle: none in a hosted library,
    /// whose every document is its corpus's (the switcher names it), so the reader's eye goes
    /// to the marks where a bundle's text sits among their own documents.
    pub(super) fn shown_provenance(&self) -> std::collections::BTreeMap<fonte_core::DocId, String> {
        if self.entry.corpus.is_some() {
            return Default::default();
        }
        self.library().from_bundles()
    }

    /// The model the library uses.
    pub fn model(&self) -> Model {
        self.service().model().clone()
    }

    /// The installed models (the default first).
    pub fn models(&self) -> &[Model] {
        &self.models
    }

    /// The service of the library's model (cloned out: it is replaced on a model switch
    /// while work that started with the old one finishes with it).
    pub(super) fn service(&self) -> Rc<ModelService> {
        self.session.services()
    }

    /// The core session the page drives (asking goes through it).
    pub fn session(&self) -> &PageSession {
        &self.session
    }

    pub(super) fn library(&self) -> &Library<IdbStore> {
        self.session.library()
    }

    pub(super) fn queue(&self) -> &Queue {
        self.session.queue()
    }

    /// Hybrid search; `scope` lists the document ids to search (all when empty).
    pub async fn search(
        &self,
        query: &str,
        scope: &[fonte_core::DocId],
    ) -> AppResult<Vec<ResultRow>> {
        let query = query.trim();
        if query.is_empty() || self.library().corpus().chunks().is_empty() {
            return Ok(Vec::new());
        }
        let all_versions = self.ui.all_versions.get_untracked();
        let hits = self.session.search(query, scope, all_versions).await?;
        Ok(self.rows.results(&self.library().corpus(), hits, query))
    }

    /// The passages holding `query`'s words, at once (no model): shown while the query
    /// model loads, until [`Engine::search`]'s ranking replaces them.
    pub fn search_words(&self, query: &str, scope: &[fonte_core::DocId]) -> Vec<ResultRow> {
        let all_versions = self.ui.all_versions.get_untracked();
        let hits = self.session.search_words(query, scope, all_versions);
        self.rows
            .results(&self.library().corpus(), hits, query.trim())
    }

    /// Whether a search would wait for the query model to load.
    pub fn query_ready(&self) -> bool {
        self.session.query_ready()
    }

    /// Where the passage at characters `start..end` of page `page` of document `id` is drawn:
    /// boxes in the page's user space (left, bottom, right, top, flattened), from the stored
    /// lines of the page; empty when the document was stored without them.
    pub async fn marks(
        &self,
        id: &str,
        page: u32,
        start: usize,
        end: usize,
    ) -> AppResult<Vec<f32>> {
        let Some(text) = self.library().store().page(id, page).await? else {
            return Ok(Vec::new());
        };
        Ok(text.marks(start, end).into_iter().flatten().collect())
    }

    /// The stored documents as (id, name), for scoping.
    pub fn documents(&self) -> Vec<(fonte_core::DocId, String)> {
        self.library()
            .documents()
            .into_iter()
            .map(|d| (d.id, d.name))
            .collect()
    }

    /// Asks for persistent storage and publishes the space used.
    pub async fn refresh_storage(&self) {
        if let Some((used, quota)) = crate::platform::storage::estimate().await {
            self.ui.storage.set(Some((used, quota)));
        }
    }
}
