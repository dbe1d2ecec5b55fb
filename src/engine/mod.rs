//! The library behind the page, as the components see it: [`Engine`] ties the core
//! [`Library`] (IndexedDB store + searchable corpus), the [`ModelService`] (reader worker and
//! embedding model of the library's model) and the ingestion queue ([`queue`]) to the signals
//! in [`crate::state::Ui`]. Library management (delete, clear, model switch) is in [`manage`].

mod ask;
mod hosted;
mod manage;
mod neighbours;
pub(crate) use neighbours::SLICE_PAIRS;
mod queue;
mod service;
mod share;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use fonte_core::ingest::queue::Queue;
use fonte_core::library::{Library, Opening};
use fonte_core::search::lexical::highlight;
use fonte_core::session::Session;
use fonte_core::store::Store;
use gloo::timers::future::TimeoutFuture;
use leptos::prelude::*;

use crate::models::Model;
use crate::platform::idb::{DbEvent, IdbStore};
use crate::platform::libraries::Entry;
use crate::state::{Loaded, Notice, ResultRow, Row, Status, Ui};
use crate::AppResult;
pub use service::ModelService;

/// Where the model and onnxruntime-web are served from (same origin as the app).
pub const ORT_DIR: &str = "ort/";
/// The page's session: its IndexedDB library and its model's services.
pub type PageSession = Session<IdbStore, ModelService>;

/// The library and everything that works on it.
pub struct Engine {
    ui: Ui,
    // The library, its queue and its model's reader and embedder (replaced by `switch_model`).
    session: PageSession,
    models: Vec<Model>,
    // Bytes embedded so far of each file part-embedded: the queue embeds the first pages of
    // every file before the rest of any, so several can be part-way at once.
    embedding: RefCell<std::collections::HashMap<u64, f64>>,
    next_key: Cell<u64>,
    // Which library this is, and for a hosted one its bundle (opened on the first PDF shown).
    entry: Entry,
    hosted: async_lock::Mutex<Option<crate::platform::hosted::Hosted>>,
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Lets the browser paint and handle input before the next piece of work.
async fn yield_now() {
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
            let ids: Vec<String> = models.iter().map(|m| m.manifest.id.clone()).collect();
            hosted = Some(hosted::fetch(ui, &mut entry, &ids).await?);
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
        let (loaded, stale, damaged) = match opening {
            Opening::Ready {
                restored,
                stale,
                damaged,
            } => {
                let corpus = session.library().corpus();
                let loaded = Loaded::Ready {
                    restored,
                    documents: corpus.documents().len(),
                    chunks: corpus.chunks().len(),
                    ms: now_ms() - started,
                };
                (loaded, stale, damaged)
            }
            Opening::Mismatch { stored } => {
                let stored = format!(
                    "{} (dim {}), chunks of {} tokens",
                    stored.model_id, stored.dim, stored.chunk_params.target_tokens
                );
                (Loaded::Mismatch { stored }, Vec::new(), Vec::new())
            }
        };
        let engine = Rc::new(Self {
            ui,
            session,
            models,
            embedding: RefCell::default(),
            next_key: Cell::new(1),
            entry,
            hosted: async_lock::Mutex::new(hosted),
        });
        let mut rows: Vec<Row> = engine
            .library()
            .documents()
            .into_iter()
            .map(|d| engine.stored_row(d))
            .collect();
        // Listed so they can be deleted; the rest of the library works.
        rows.extend(damaged.into_iter().map(|d| Row {
            key: engine.key(),
            id: Some(d.id),
            name: d.name,
            size: None,
            pages: Some(d.pages),
            chunks: None,
            status: Status::Damaged,
        }));
        ui.rows.set(rows);
        ui.models.set(engine.models.clone());
        ui.model.set(engine.model().manifest.id);
        ui.loaded.set(loaded);
        ui.generation.update(|g| *g += 1);
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
    fn service(&self) -> Rc<ModelService> {
        self.session.services()
    }

    /// The core session the page drives (asking goes through it).
    pub fn session(&self) -> &PageSession {
        &self.session
    }

    fn library(&self) -> &Library<IdbStore> {
        self.session.library()
    }

    fn queue(&self) -> &Queue {
        self.session.queue()
    }

    /// The row of a stored, searchable document.
    fn stored_row(&self, d: fonte_core::search::corpus::DocumentMeta) -> Row {
        Row {
            key: self.key(),
            chunks: Some(self.library().chunk_count(&d.id)),
            id: Some(d.id),
            name: d.name,
            size: None,
            pages: Some(d.pages),
            status: Status::from_report(&d.report),
        }
    }

    fn key(&self) -> u64 {
        let k = self.next_key.get();
        self.next_key.set(k + 1);
        k
    }

    fn set_status(&self, key: u64, f: impl FnOnce(&mut Row)) {
        self.ui.rows.update(|rows| {
            if let Some(r) = rows.iter_mut().find(|r| r.key == key) {
                f(r);
            }
        });
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
        let hits = self.session.search(query, scope).await?;
        let corpus = self.library().corpus();
        let rows: Vec<ResultRow> = hits
            .into_iter()
            .map(|h| {
                let c = &corpus.chunks()[h.chunk as usize];
                let doc = &corpus.documents()[c.doc as usize];
                ResultRow {
                    chunk: h.chunk,
                    doc_id: doc.id.clone(),
                    doc_name: doc.name.clone(),
                    page: c.chunk.page,
                    score: h.score,
                    heading: c.chunk.heading_path.join(" › "),
                    char_start: c.chunk.char_start,
                    char_end: c.chunk.char_end,
                    runs: highlight(&c.chunk.text, query),
                    lexical_only: !corpus.has_vector(h.chunk),
                }
            })
            .collect();
        Ok(rows)
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
