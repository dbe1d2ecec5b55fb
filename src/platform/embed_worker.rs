//! One embedding worker (`public/embed-worker.js`) as the page sees it: started with the model,
//! then one text's token ids in, the graph's output out, one request at a time. The pool
//! (`embed_pool`) runs several side by side.

use fonte_core::embed::tokenize::EncodedBatch;
use js_sys::{Array, BigInt64Array, Float32Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::assets::address_number;
use super::worker::{Elapsed, WorkerHandle};
use crate::{AppError, AppResult};

/// The worker script (copied to the site by Trunk, index.html).
const WORKER_URL: &str = "embed-worker.js";
/// Longest wait for a worker to load the model (it fetches and checks 40 to 120 MB, then
/// builds its session).
const LOAD_MS: u32 = 120_000;
/// Longest wait for one text's output: a text of the model's 512 tokens takes well under a
/// second on one thread; a worker silent this long is stuck or gone (a closed or crashed
/// worker sends nothing), and the pool starts another. `?embed-ms=N` lowers it.
const RUN_MS: u32 = 60_000;

fn run_ms() -> u32 {
    address_number("embed-ms").map_or(RUN_MS, |n| (n as u32).min(RUN_MS))
}

/// Where a worker gets the model from.
pub enum ModelSource {
    /// It fetches the file and checks its SHA-256 itself (`crypto.subtle`, off the page's
    /// thread: hashing 40 MB on the page is a task of about 0.4 s).
    Url { url: String, sha256: String },
    /// Bytes the page fetched and checked (a page without `crypto.subtle`: not a secure
    /// context, e.g. a folder served over plain HTTP on a network).
    Bytes(Vec<u8>),
}

fn failed(what: &str, why: impl std::fmt::Display) -> AppError {
    AppError::Runtime(format!("embedding worker: {what}: {why}"))
}

/// One started worker holding a session of the model.
pub struct EmbedWorker {
    worker: WorkerHandle<Result<JsValue, String>>,
}

impl EmbedWorker {
    /// Starts a worker and loads the model into it.
    pub async fn start(
        ort_url: &str,
        model: &ModelSource,
        output: &str,
        threads: u32,
    ) -> AppResult<Self> {
        let message = |data: JsValue| match Reflect::get(&data, &"failed".into()) {
            Ok(why) if !why.is_undefined() => Err(AppError::js_text(&why)),
            _ => Ok(data),
        };
        let worker = WorkerHandle::start(WORKER_URL, message, Err)
            .map_err(|e| failed("start", AppError::js_text(&e)))?;
        let mut me = Self { worker };
        let load = Object::new();
        let set = |k: &str, v: &JsValue| Reflect::set(&load, &k.into(), v).map(|_| ());
        let transfer = Array::new();
        let model_set = match model {
            ModelSource::Url { url, sha256 } => {
                set("url", &url.into()).and(set("sha256", &sha256.into()))
            }
            ModelSource::Bytes(bytes) => {
                let bytes = Uint8Array::from(&bytes[..]);
                transfer.push(&bytes.buffer());
                set("model", &bytes.buffer())
            }
        };
        model_set
            .and(set("ort", &ort_url.into()))
            .and(set("output", &output.into()))
            .and(set("threads", &threads.into()))
            .map_err(|e| failed("load", AppError::js_text(&e)))?;
        let message = Object::new();
        let _ = Reflect::set(&message, &"load".into(), &load);
        me.worker
            .post(&message, &transfer)
            .map_err(|e| failed("load", AppError::js_text(&e)))?;
        me.answer(LOAD_MS).await.map_err(|e| failed("load", e))?;
        Ok(me)
    }

    /// The worker's answer within `ms`.
    async fn answer(&mut self, ms: u32) -> Result<JsValue, String> {
        match self.worker.next_within(ms).await {
            Ok(Some(answer)) => answer,
            Ok(None) => Err("the worker went away".into()),
            Err(Elapsed) => Err(format!("no answer within {} s", ms / 1000)),
        }
    }

    /// The graph's output for one text (a batch of one, without padding).
    pub async fn run(&mut self, row: &EncodedBatch, names: &[String]) -> AppResult<Vec<f32>> {
        let inputs = Array::new();
        let transfer = Array::new();
        for (name, data) in row.inputs_for(names)? {
            let array = BigInt64Array::new_with_length(data.len() as u32);
            array.copy_from(&data);
            transfer.push(&array.buffer());
            inputs.push(&Array::of2(&name.into(), &array));
        }
        let run = Object::new();
        let _ = Reflect::set(&run, &"seq".into(), &(row.seq as u32).into());
        let _ = Reflect::set(&run, &"inputs".into(), &inputs);
        let message = Object::new();
        let _ = Reflect::set(&message, &"run".into(), &run);
        self.worker
            .post(&message, &transfer)
            .map_err(|e| failed("run", AppError::js_text(&e)))?;
        let answer = self.answer(run_ms()).await.map_err(|e| failed("run", e))?;
        let output = Reflect::get(&answer, &"output".into())
            .ok()
            .and_then(|o| o.dyn_into::<Float32Array>().ok())
            .ok_or_else(|| failed("run", "no output"))?;
        Ok(output.to_vec())
    }
}
