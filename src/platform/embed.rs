//! Browser [`Encoder`]: the ONNX model in onnxruntime-web through `ort` + `ort-web`.
//!
//! onnxruntime-web's files are self-hosted (copied from the pinned npm package into `ort/` of
//! the served site) and telemetry is off, so loading the model contacts no third party.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use fonte_core::embed::{Encoder, ModelManifest};
use fonte_core::tokenize::EncodedBatch;
use ort::environment::Environment;
use ort::session::{RunOptions, Session};
use ort::value::Tensor;

use crate::{AppError, AppResult};

thread_local! {
    static API_SET: Cell<bool> = const { Cell::new(false) };
    // ort allows one environment per process: every session shares this one.
    static ENV: RefCell<Option<Rc<Environment>>> = const { RefCell::new(None) };
}

fn environment() -> AppResult<Rc<Environment>> {
    if let Some(env) = ENV.with(|e| e.borrow().clone()) {
        return Ok(env);
    }
    let env = ort::init()
        .with_name("fonte")
        .with_telemetry(false)
        .build()
        .map_err(|e| AppError::Runtime(e.to_string()))?;
    let env = Rc::new(env);
    ENV.with(|e| *e.borrow_mut() = Some(env.clone()));
    Ok(env)
}

/// Loads onnxruntime-web from `dist_url` (a folder URL ending in `/` holding `ort.wasm.min.js`,
/// `ort-wasm-simd-threaded.mjs` and `.wasm`) and makes it `ort`'s backend. Idempotent.
pub async fn init_runtime(dist_url: &str) -> AppResult<()> {
    if API_SET.with(Cell::get) {
        return Ok(());
    }
    let api = ort_web::api(ort_web::Dist::new(dist_url))
        .await
        .map_err(|e| AppError::Runtime(format!("loading onnxruntime-web from {dist_url}: {e}")))?;
    ort::set_api(api);
    use_threads();
    API_SET.with(|s| s.set(true));
    Ok(())
}

/// In a cross-origin isolated page (COOP/COEP: SharedArrayBuffer available), lets
/// onnxruntime-web use one thread per core up to 4. Its own default is half the cores, which is
/// one thread on a 2-core machine. Must run before the first session is created.
fn use_threads() {
    let global = js_sys::global();
    let isolated = js_sys::Reflect::get(&global, &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if !isolated {
        return;
    }
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(1.0);
    let threads = cores.clamp(1.0, 4.0);
    let wasm = js_sys::Reflect::get(&global, &"ort".into())
        .and_then(|ort| js_sys::Reflect::get(&ort, &"env".into()))
        .and_then(|env| js_sys::Reflect::get(&env, &"wasm".into()));
    if let Ok(wasm) = wasm {
        if wasm.is_object() {
            let _ = js_sys::Reflect::set(&wasm, &"numThreads".into(), &threads.into());
        }
    }
}

/// An encoder graph in an onnxruntime-web session (WASM backend).
pub struct OrtWebEncoder {
    session: Session,
    manifest: ModelManifest,
    // Sessions are created from this environment; keep it alive as long as they are.
    _env: Rc<Environment>,
}

impl OrtWebEncoder {
    /// Creates a session from `model.onnx` bytes, checked against the manifest first.
    pub async fn load(
        dist_url: &str,
        manifest: &ModelManifest,
        model_onnx: &[u8],
    ) -> AppResult<Self> {
        manifest.verify("model.onnx", model_onnx)?;
        init_runtime(dist_url).await?;
        let rt = |e: ort::Error| AppError::Runtime(e.to_string());
        let env = environment()?;
        let session = Session::builder(&env)
            .map_err(rt)?
            .commit_from_memory(model_onnx)
            .await
            .map_err(rt)?;
        Ok(Self {
            session,
            manifest: manifest.clone(),
            _env: env,
        })
    }
}

impl Encoder for OrtWebEncoder {
    async fn encode(&mut self, batch: &EncodedBatch) -> fonte_core::Result<Vec<f32>> {
        let model = |e: ort::Error| fonte_core::Error::Model(e.to_string());
        let shape = [batch.batch as i64, batch.seq as i64];
        let mut inputs: Vec<(
            std::borrow::Cow<'_, str>,
            ort::session::SessionInputValue<'_>,
        )> = Vec::new();
        for (name, data) in batch.inputs_for(&self.manifest.inputs)? {
            let tensor = Tensor::from_array((shape, data)).map_err(model)?;
            inputs.push((name.into(), tensor.into_dyn().into()));
        }
        let options = RunOptions::new().map_err(model)?;
        let mut outputs = self
            .session
            .run_async(inputs, &options)
            .await
            .map_err(model)?;
        ort_web::sync_outputs(&mut outputs)
            .await
            .map_err(|e| fonte_core::Error::Model(e.to_string()))?;
        let (_, data) = outputs[self.manifest.output.as_str()]
            .try_extract_tensor::<f32>()
            .map_err(model)?;
        Ok(data.to_vec())
    }
}
