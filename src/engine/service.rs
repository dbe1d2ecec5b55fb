//! One model's services for the library: the reader worker (parsing and chunking with the
//! model's tokenizer) and the embedding model, each created on first use, one of each per
//! page. The embedder sits behind an async lock held across each inference, so a search while
//! a file is embedding waits for the current chunk instead of finding the model gone (or
//! loading a second copy).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use async_lock::{Mutex, MutexGuard};
use fonte_core::answer::translate::Translation;
use fonte_core::embed::Embedder;
use fonte_core::ingest::queue::Services;
use fonte_core::ingest::Prepared;
use fonte_core::pdf::{RejectReason, Report, Stopped};
use fonte_core::search::chunk::ChunkParams;
use fonte_core::search::lang::Lang;
use leptos::prelude::*;

use super::{yield_now, ORT_DIR};
use crate::models::{Compute, Model, Placement};
use crate::platform::assets::absolute;
use crate::platform::assets::fetch_bytes;
use crate::platform::embed::{choose_compute, requested_compute, OrtWebEncoder};
use crate::platform::embed_pool::{pool_size, PageEncoder, PoolEncoder, TEXTS_PER_WORKER};
use crate::platform::reader::ReaderWorker;
use crate::platform::translator;
use crate::state::{Notice, Ui};
use crate::{AppError, AppResult};

/// The reader and embedder of one model.
pub struct ModelService {
    model: Model,
    ui: Ui,
    reader: RefCell<Option<Rc<ReaderWorker>>>,
    embedder: Mutex<Option<Embedder<PageEncoder>>>,
    // Texts the embedder runs side by side (the pool's workers), once it is loaded.
    slice: Cell<usize>,
    // The embedder is loaded (a query is embedded without waiting for it).
    ready: Cell<bool>,
}

impl ModelService {
    /// The services of `model` (nothing is loaded yet); `ui` shows where the model runs.
    pub fn new(model: Model, ui: Ui) -> Self {
        Self {
            model,
            ui,
            reader: RefCell::new(None),
            embedder: Mutex::new(None),
            slice: Cell::new(1),
            ready: Cell::new(false),
        }
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The reader worker (its tokenizer counts the chunks' tokens), so a file can be read and
    /// rejected without waiting for the model, and no file can crash the page.
    pub async fn reader(&self) -> AppResult<Rc<ReaderWorker>> {
        if let Some(r) = self.reader.borrow().as_ref() {
            return Ok(r.clone());
        }
        let json = fetch_bytes(&format!("{}tokenizer.json", self.model.dir)).await?;
        self.model.manifest.verify("tokenizer.json", &json)?;
        // Another task may have made one while this one fetched: keep the first.
        if let Some(r) = self.reader.borrow().as_ref() {
            return Ok(r.clone());
        }
        let reader = Rc::new(ReaderWorker::new(json, self.model.manifest.max_tokens));
        *self.reader.borrow_mut() = Some(reader.clone());
        Ok(reader)
    }

    /// The embedding model, loaded on first use; the guard holds it for one inference.
    pub async fn embedder(&self) -> AppResult<MutexGuard<'_, Option<Embedder<PageEncoder>>>> {
        let mut slot = self.embedder.lock().await;
        if slot.is_some() {
            return Ok(slot);
        }
        let active = &self.model;
        let tokenizer = fetch_bytes(&format!("{}tokenizer.json", active.dir)).await?;
        let compute = choose_compute(requested_compute()).await;
        let (encoder, placement, batch) = if compute == Compute::Wasm {
            // On the CPU, texts side by side in the pool's workers, a few per worker: the
            // queue hands over a slice of that many (`Services::slice`). Batch 1 inside a
            // worker: padding to the longest text of a batch costs more than batching saves
            // (measured for issue 4: batch 1 was fastest in every CPU runtime).
            let model_url = format!("{}model.onnx", active.dir);
            let pool = PoolEncoder::load(
                &absolute(ORT_DIR),
                &active.manifest,
                &model_url,
                pool_size(),
            )
            .await?;
            let placement = Placement {
                compute,
                threads: pool.size() as u32 * pool.threads(),
                workers: pool.size() as u32,
                gpu_failed: None,
            };
            let slice = pool.size() * TEXTS_PER_WORKER;
            (PageEncoder::Pool(pool), placement, slice)
        } else {
            let model = fetch_bytes(&format!("{}model.onnx", active.dir)).await?;
            let encoder =
                OrtWebEncoder::load(&absolute(ORT_DIR), &active.manifest, &model, compute).await?;
            let placement = encoder.placement().clone();
            // A GPU is built for wide batches (not measured here: no GPU on the development
            // machines); where WebGPU failed, the page's session runs batch 1 on the CPU.
            let batch = match placement.compute {
                Compute::WebGpu => 16,
                Compute::Wasm => 1,
            };
            (PageEncoder::Page(encoder), placement, batch)
        };
        let embedder =
            Embedder::new(active.manifest.clone(), &tokenizer, encoder)?.with_batch_size(batch);
        self.ui.placement.set(Some(placement));
        self.slice
            .set(if compute == Compute::Wasm { batch } else { 1 });
        *slot = Some(embedder);
        self.ready.set(true);
        Ok(slot)
    }
}

impl fonte_core::session::Services for ModelService {
    fn model(&self) -> &fonte_core::embed::ModelManifest {
        &self.model.manifest
    }

    /// The query vector of `text` (the library's model, as a query).
    async fn embed_query(&self, text: &str) -> AppResult<Vec<f32>> {
        let mut slot = self.embedder().await?;
        let embedder = slot.as_mut().expect("loaded by embedder()");
        Ok(embedder.embed_query(text).await?)
    }

    fn query_ready(&self) -> bool {
        self.ready.get()
    }

    /// `question` in `to` by the page's translation worker. A failure there is shown as a
    /// notice and the question is searched as typed: a translation helps, it is not needed.
    async fn translate_here(&self, question: &str, to: Lang) -> AppResult<Option<Translation>> {
        match translator::shared().translate(question, to).await {
            Ok(t) => Ok(t),
            Err(e) => {
                self.ui.notice.set(Some(Notice::TranslationUnavailable(e)));
                Ok(None)
            }
        }
    }
}

impl ModelService {
    /// Frees the embedding workers only ingesting uses, once the queue is idle (a search
    /// waits for the current inference, as for any other).
    pub async fn shrink(&self) {
        if let Some(embedder) = self.embedder.lock().await.as_mut() {
            embedder.encoder_mut().shrink();
        }
    }
}

/// A file the reader stopped on (a panic, a time or memory limit) is rejected with why.
fn stopped(why: Stopped) -> Report {
    Report::Rejected {
        reason: RejectReason::ReaderStopped { why },
    }
}

/// What the ingestion queue gets from the page: reading in the reader worker, embedding one
/// slice per inference under the embedder's lock (searches interleave between slices).
impl Services for ModelService {
    type Error = AppError;

    async fn open(
        &self,
        name: &str,
        bytes: &[u8],
        password: Option<&str>,
    ) -> AppResult<Option<Report>> {
        let reader = self.reader().await?;
        // Opening reads the cross-reference table and trailer only (14 ms natively for the
        // 6.5 MB fullrefman.pdf).
        let opened = reader.open(name, bytes, password.map(String::from)).await?;
        Ok(opened.unwrap_or_else(|why| Some(stopped(why))))
    }

    async fn read(
        &self,
        name: &str,
        bytes: &[u8],
        password: Option<&str>,
        params: ChunkParams,
    ) -> AppResult<Result<Prepared, Report>> {
        let reader = self.reader().await?;
        let read = reader
            .read(
                name,
                bytes,
                password.map(String::from),
                params,
                &mut |_, _| {},
            )
            .await?;
        Ok(read.map_err(stopped))
    }

    async fn embed(&self, texts: &[&str]) -> AppResult<Vec<Vec<f32>>> {
        let mut slot = self.embedder().await?;
        let embedder = slot.as_mut().expect("loaded by embedder()");
        Ok(embedder.embed_passages(texts).await?)
    }

    fn slice(&self) -> usize {
        self.slice.get()
    }

    async fn pause(&self) {
        yield_now().await;
    }
}
