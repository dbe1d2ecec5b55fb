//! Browser [`Encoder`]: the ONNX model in onnxruntime-web through `ort` + `ort-web`.
//!
//! onnxruntime-web's files are self-hosted (copied from the pinned npm package into `ort/` of
//! the served site) and telemetry is off, so loading the model contacts no third party.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use fonte_core::embed::tokenize::EncodedBatch;
use fonte_core::embed::{Encoder, ModelManifest};
use ort::environment::Environment;
use ort::session::builder::SessionBuilder;
use ort::session::{RunOptions, Session};
use ort::value::Tensor;
use wasm_bindgen::{JsCast, JsValue};

use crate::models::{Compute, Placement};
use crate::{AppError, AppResult};

thread_local! {
    static API_SET: Cell<bool> = const { Cell::new(false) };
    static THREADS: Cell<u32> = const { Cell::new(1) };
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

/// The backend asked for in the page address (`?compute=webgpu` or `?compute=wasm`), for
/// diagnosis and tests; `None` chooses automatically.
pub fn requested_compute() -> Option<Compute> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    match params.get("compute")?.as_str() {
        "webgpu" => Some(Compute::WebGpu),
        "wasm" => Some(Compute::Wasm),
        _ => None,
    }
}

/// What the browser's WebGPU offers: `None` without an adapter, else whether the adapter is a
/// software rasterizer (SwiftShader), which is slower than the WebAssembly backend.
async fn gpu_adapter() -> Option<bool> {
    use js_sys::Reflect;
    let navigator = web_sys::window()?.navigator();
    let gpu = Reflect::get(&navigator, &"gpu".into()).ok()?;
    if gpu.is_undefined() || gpu.is_null() {
        return None;
    }
    let request: js_sys::Function = Reflect::get(&gpu, &"requestAdapter".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let promise: js_sys::Promise = request.call0(&gpu).ok()?.dyn_into().ok()?;
    let adapter = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    if adapter.is_null() || adapter.is_undefined() {
        return None;
    }
    let info = Reflect::get(&adapter, &"info".into()).unwrap_or(JsValue::UNDEFINED);
    let flag = |v: &JsValue| Reflect::get(v, &"isFallbackAdapter".into()).ok()?.as_bool();
    let text = |k: &str| {
        Reflect::get(&info, &k.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
            .to_lowercase()
    };
    let software = flag(&info).or_else(|| flag(&adapter)).unwrap_or(false)
        || text("architecture").contains("swiftshader")
        || text("description").contains("swiftshader");
    Some(software)
}

/// Chooses the backend: the one requested if possible, else WebGPU when the browser has a
/// hardware adapter, else WebAssembly.
pub async fn choose_compute(requested: Option<Compute>) -> Compute {
    match (requested, gpu_adapter().await) {
        (Some(Compute::Wasm), _) | (_, None) => Compute::Wasm,
        (Some(Compute::WebGpu), Some(_)) | (None, Some(false)) => Compute::WebGpu,
        (None, Some(true)) => Compute::Wasm,
    }
}

/// Loads onnxruntime-web from `dist_url` (the folder of its self-hosted files) and makes it
/// `ort`'s backend. For WebGPU it loads the build with both the WebGPU and the WebAssembly
/// execution providers (`ort.webgpu.min.js`, larger), else the CPU-only one
/// (`ort.wasm.min.js`). Idempotent: the first call decides for the page.
pub async fn init_runtime(dist_url: &str, compute: Compute) -> AppResult<()> {
    if API_SET.with(Cell::get) {
        return Ok(());
    }
    let dist = match compute {
        Compute::Wasm => ort_web::Dist::new(dist_url),
        Compute::WebGpu => ort_web::Dist::new(dist_url).with_script_name("ort.webgpu.min.js"),
    };
    let api = ort_web::api(dist)
        .await
        .map_err(|e| AppError::Runtime(format!("loading onnxruntime-web from {dist_url}: {e}")))?;
    ort::set_api(api);
    THREADS.with(|t| t.set(configure_wasm(compute)));
    API_SET.with(|s| s.set(true));
    Ok(())
}

/// Sets onnxruntime-web's WebAssembly options before the first session: its proxy worker (for
/// the CPU backend), and in a cross-origin isolated page (COOP/COEP: SharedArrayBuffer
/// available) one thread per core up to 4; its own default is half the cores, which is one
/// thread on a 2-core machine. Returns the threads.
fn configure_wasm(compute: Compute) -> u32 {
    let global = js_sys::global();
    // Inference (and creating a session, which for the bilingual model unpacks its weights)
    // runs in onnxruntime-web's own worker, so a long one never freezes the page. Not for
    // WebGPU, which the proxy does not support (and whose work is on the GPU anyway).
    if compute == Compute::Wasm {
        if let Ok(wasm) = js_sys::Reflect::get(&global, &"ort".into())
            .and_then(|ort| js_sys::Reflect::get(&ort, &"env".into()))
            .and_then(|env| js_sys::Reflect::get(&env, &"wasm".into()))
        {
            let _ = js_sys::Reflect::set(&wasm, &"proxy".into(), &true.into());
        }
    }
    let isolated = js_sys::Reflect::get(&global, &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if !isolated {
        return 1;
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
    threads as u32
}

/// Adds onnxruntime-web's WebGPU execution provider to a session (operators it lacks run on
/// the CPU). Registered by hand under the name ort-web 0.5 knows, "WebGPU": ort 2.0.0-rc.15
/// (with ONNX Runtime API 22 and later, which ort-web itself enables) passes
/// `ort::ep::WebGPU`'s canonical name "WebGpuExecutionProvider", which ort-web refuses as
/// "not supported".
fn append_webgpu(builder: &mut SessionBuilder) -> ort::Result<()> {
    use ort::{ortsys, AsPointer};
    let none: [*const std::ffi::c_char; 0] = [];
    ortsys![unsafe SessionOptionsAppendExecutionProvider(
        builder.ptr_mut(),
        c"WebGPU".as_ptr(),
        none.as_ptr(),
        none.as_ptr(),
        0
    )?];
    Ok(())
}

/// An encoder graph in an onnxruntime-web session (WASM backend).
pub struct OrtWebEncoder {
    session: Session,
    manifest: ModelManifest,
    placement: Placement,
    // Sessions are created from this environment; keep it alive as long as they are.
    _env: Rc<Environment>,
}

impl OrtWebEncoder {
    /// Creates a session from `model.onnx` bytes, checked against the manifest first, on
    /// `compute`. A WebGPU session must load and give a finite vector for a test input;
    /// otherwise the WebAssembly backend is used and the reason kept in the placement.
    pub async fn load(
        dist_url: &str,
        manifest: &ModelManifest,
        model_onnx: &[u8],
        compute: Compute,
    ) -> AppResult<Self> {
        manifest.verify("model.onnx", model_onnx)?;
        init_runtime(dist_url, compute).await?;
        let env = environment()?;
        let threads = THREADS.with(Cell::get);
        let mut gpu_failed = None;
        if compute == Compute::WebGpu {
            match Self::session(&env, model_onnx, Compute::WebGpu).await {
                Ok(session) => {
                    let mut encoder = Self {
                        session,
                        manifest: manifest.clone(),
                        placement: Placement {
                            compute,
                            threads,
                            workers: 1,
                            gpu_failed: None,
                        },
                        _env: env.clone(),
                    };
                    match encoder.check().await {
                        Ok(()) => return Ok(encoder),
                        Err(e) => gpu_failed = Some(e.to_string()),
                    }
                }
                Err(e) => gpu_failed = Some(e.to_string()),
            }
        }
        let session = Self::session(&env, model_onnx, Compute::Wasm).await?;
        Ok(Self {
            session,
            manifest: manifest.clone(),
            placement: Placement {
                compute: Compute::Wasm,
                threads,
                workers: 1,
                gpu_failed,
            },
            _env: env,
        })
    }

    /// Where the model runs.
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    async fn session(env: &Environment, model_onnx: &[u8], compute: Compute) -> AppResult<Session> {
        let rt = |e: ort::Error| AppError::Runtime(e.to_string());
        let mut builder = Session::builder(env).map_err(rt)?;
        if compute == Compute::WebGpu {
            append_webgpu(&mut builder).map_err(rt)?;
        }
        builder.commit_from_memory(model_onnx).await.map_err(rt)
    }

    /// One inference of a two-token input, which must give finite numbers.
    async fn check(&mut self) -> fonte_core::Result<()> {
        let probe = EncodedBatch {
            batch: 1,
            seq: 2,
            input_ids: vec![0, 0],
            attention_mask: vec![1, 1],
            token_type_ids: vec![0, 0],
        };
        let out = self.encode(&probe).await?;
        if out.is_empty() || out.iter().any(|x| !x.is_finite()) {
            return Err(fonte_core::Error::Model(
                "the WebGPU backend returned invalid numbers".into(),
            ));
        }
        Ok(())
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
