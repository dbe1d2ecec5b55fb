//! The page's pool of embedding workers (`public/embed-worker.js`): on the CPU, texts are
//! embedded side by side, one per worker, each worker with its own single-threaded instance
//! of onnxruntime-web. Two inferences at once on two cores do about 1.6 times the work of one
//! (docs/PERFORMANCE.md, "Embedding"), where onnxruntime-web's own threads split one
//! small inference and gain far less. Tokenizing and pooling stay in fonte-core's
//! [`Embedder`](fonte_core::embed::Embedder) on the page; a worker runs the graph on one
//! text's token ids and answers its output.
//!
//! The first worker starts with the model; the others start when a batch of several texts
//! first comes (ingesting) and end when the queue is idle, so a page that only searches holds
//! one copy of the model. Each worker fetches `model.onnx` and checks it against the manifest
//! itself (the page does, and hands the bytes over, only where the page has no
//! `crypto.subtle`).

use fonte_core::embed::tokenize::EncodedBatch;
use fonte_core::embed::{Encoder, ModelManifest};
use futures_util::future::join_all;
use js_sys::Reflect;

use super::assets::fetch_bytes;
use super::embed_worker::{EmbedWorker, ModelSource};
use crate::{AppError, AppResult};

/// Workers at most, whatever the cores: each holds its own copy of the model and its
/// runtime (with the 8-bit bilingual model a pool of one grew the page by 254 MB, of two by
/// 333 MB: docs/PERFORMANCE.md). More would help machines with more cores; not measured here.
pub const MAX_WORKERS: usize = 2;

/// Texts the queue hands the pool at a time, per worker. The workers take them longest
/// first, each the next as soon as it is free, so the slice's end is the only time one
/// waits for the other: with 2 workers, 4 each embedded 1.11 times as fast as 1 each
/// (docs/PERFORMANCE.md, "Embedding"), and a search waits for at most one slice
/// (about a third of a second) while a file embeds.
pub const TEXTS_PER_WORKER: usize = 4;

/// How many workers the pool may run: one per core up to [`MAX_WORKERS`], or `?embed-workers=N`
/// in the page address (benchmarks, diagnosis).
pub fn pool_size() -> usize {
    let window = web_sys::window();
    let asked = window
        .as_ref()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
        .and_then(|p| p.get("embed-workers"))
        .and_then(|n| n.parse::<usize>().ok());
    let cores = window.map_or(1.0, |w| w.navigator().hardware_concurrency()) as usize;
    asked.unwrap_or(cores.min(MAX_WORKERS)).clamp(1, 8)
}

/// onnxruntime-web threads for each of `workers` workers: the cores shared out in a
/// cross-origin isolated page (where it may use threads), else 1.
pub fn threads_each(workers: usize) -> u32 {
    let isolated = Reflect::get(&js_sys::global(), &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if !isolated {
        return 1;
    }
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    ((cores as usize / workers.max(1)).clamp(1, 4)) as u32
}

/// An [`Encoder`] that runs each text of a batch in a worker of the pool, side by side.
pub struct PoolEncoder {
    workers: Vec<EmbedWorker>,
    size: usize,
    threads: u32,
    manifest: ModelManifest,
    model_url: String,
    ort_url: String,
}

impl PoolEncoder {
    /// A pool of up to `size` workers for the model whose `model.onnx` is at `model_url`,
    /// with the first one started.
    pub async fn load(
        ort_url: &str,
        manifest: &ModelManifest,
        model_url: &str,
        size: usize,
    ) -> AppResult<Self> {
        let mut pool = Self {
            workers: Vec::new(),
            size: size.max(1),
            threads: threads_each(size),
            manifest: manifest.clone(),
            model_url: crate::platform::assets::absolute(model_url),
            ort_url: ort_url.to_string(),
        };
        pool.grow(1).await?;
        Ok(pool)
    }

    /// Workers the pool may run.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Ends every worker but the first (the queue is idle: one is enough for searches, and
    /// each holds its own copy of the model).
    pub fn shrink(&mut self) {
        self.workers.truncate(1);
    }

    /// onnxruntime-web threads of each worker.
    pub fn threads(&self) -> u32 {
        self.threads
    }

    /// Starts workers until `n` run (at most the pool's size), each loading the model file
    /// (from the browser's cache after the first).
    async fn grow(&mut self, n: usize) -> AppResult<()> {
        let want = n.min(self.size);
        if self.workers.len() >= want {
            return Ok(());
        }
        let source = self.source().await?;
        let output = self.manifest.output.clone();
        let started = join_all(
            (self.workers.len()..want)
                .map(|_| EmbedWorker::start(&self.ort_url, &source, &output, self.threads)),
        )
        .await;
        for worker in started {
            self.workers.push(worker?);
        }
        Ok(())
    }

    async fn source(&self) -> AppResult<ModelSource> {
        let spec = self.manifest.files.get("model.onnx").ok_or_else(|| {
            AppError::from(fonte_core::Error::Manifest(format!(
                "{}: no model.onnx listed",
                self.manifest.id
            )))
        })?;
        let subtle = Reflect::get(&js_sys::global(), &"crypto".into())
            .and_then(|c| Reflect::get(&c, &"subtle".into()))
            .is_ok_and(|s| s.is_object());
        if subtle {
            return Ok(ModelSource::Url {
                url: self.model_url.clone(),
                sha256: spec.sha256.clone(),
            });
        }
        let model = fetch_bytes(&self.model_url).await?;
        self.manifest.verify("model.onnx", &model)?;
        Ok(ModelSource::Bytes(model))
    }
}

/// Times a batch is tried again after a worker failed or went silent (each time with a new
/// worker in its place): a worker lost mid-file costs a retry, not the file.
const RETRIES: usize = 2;

impl Encoder for PoolEncoder {
    async fn encode(&mut self, batch: &EncodedBatch) -> fonte_core::Result<Vec<f32>> {
        let mut tries = 0;
        loop {
            match self.try_encode(batch).await {
                Ok(v) => return Ok(v),
                Err(e) if tries < RETRIES => {
                    tries += 1;
                    web_sys::console::warn_1(
                        &format!("Fonte: {e}; the batch is tried again with a new worker").into(),
                    );
                }
                Err(e) => return Err(fonte_core::Error::Model(e.to_string())),
            }
        }
    }
}

impl PoolEncoder {
    async fn try_encode(&mut self, batch: &EncodedBatch) -> AppResult<Vec<f32>> {
        let rows = batch.rows();
        if let Err(e) = self.grow(rows.len().max(1)).await {
            if self.workers.is_empty() {
                return Err(e);
            }
            // A worker that does not start leaves the others to do the work.
            web_sys::console::warn_1(&format!("Fonte: {e}").into());
        }
        let names = self.manifest.inputs.clone();
        // Each worker takes the next text as soon as it is free, longest first: texts of a
        // slice differ in length several times over, and handing them out in turn left one
        // worker idle while the other finished a long one.
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by_key(|&r| std::cmp::Reverse(rows[r].seq));
        let next = std::cell::Cell::new(0);
        let runs = self.workers.iter_mut().map(|worker| {
            let (names, rows, order, next) = (&names, &rows, &order, &next);
            async move {
                let mut outs = Vec::new();
                while let Some(&r) = order.get(next.get()) {
                    next.set(next.get() + 1);
                    outs.push((r, worker.run(&rows[r], names).await?));
                }
                AppResult::Ok(outs)
            }
        });
        let mut outputs = vec![Vec::new(); rows.len()];
        let mut failed = Vec::new();
        let mut failure = None;
        for (w, result) in join_all(runs).await.into_iter().enumerate() {
            match result {
                Ok(outs) => outs.into_iter().for_each(|(r, o)| outputs[r] = o),
                Err(e) => {
                    failed.push(w);
                    failure = Some(e);
                }
            }
        }
        if let Some(e) = failure {
            // A worker that failed or went silent is dropped (terminated); the next try
            // starts another in its place.
            for w in failed.into_iter().rev() {
                self.workers.remove(w);
            }
            return Err(e);
        }
        let width = match rows.first() {
            Some(row) if row.seq > 0 => outputs[0].len() / row.seq,
            _ => 0,
        };
        Ok(batch.join_rows(&outputs, width)?)
    }
}

/// Where the page runs the model: the pool of workers on the CPU, or the page's own
/// onnxruntime-web session on the GPU (WebGPU runs wide batches on one device; the pool would
/// only hold more copies of the model).
pub enum PageEncoder {
    /// The page's session (WebGPU, or the CPU where WebGPU failed).
    Page(super::embed::OrtWebEncoder),
    /// Workers side by side on the CPU.
    Pool(PoolEncoder),
}

impl PageEncoder {
    /// Frees what only ingesting needs (the pool's other workers).
    pub fn shrink(&mut self) {
        if let Self::Pool(pool) = self {
            pool.shrink();
        }
    }
}

impl Encoder for PageEncoder {
    async fn encode(&mut self, batch: &EncodedBatch) -> fonte_core::Result<Vec<f32>> {
        match self {
            Self::Page(e) => e.encode(batch).await,
            Self::Pool(e) => e.encode(batch).await,
        }
    }
}
