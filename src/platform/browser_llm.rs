//! The model that runs in the page ("This browser"): a GGUF file the user picks, run by wllama
//! (npm `@wllama/wllama`: llama.cpp in WebAssembly, in its own worker; self-hosted under
//! `wllama/`, threads when the page is cross-origin isolated). It answers the OpenAI-compatible
//! chat request an endpoint would get (wllama's API is that API), streamed as the same
//! server-sent events, so the core's one ask pipeline (prompt, streaming, stop, citation
//! checks, abstention, retry) drives it unchanged, and nothing is sent anywhere. A picked file
//! is kept in the origin's private file system only when the user asks.

use fonte_core::answer::llm::{Body, Failure, HttpRequest, Method};
use std::cell::RefCell;

use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{AbortController, Blob, File};

#[wasm_bindgen(inline_js = r#"
let wllama = null;
let loaded = null;
const base = () => new URL('wllama/', document.baseURI);
const dir = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('fonte-llm', { create: true });

export async function llm_load(file, nCtx) {
  const { Wllama } = await import(new URL('index.js', base()).href);
  if (wllama) { const old = wllama; wllama = null; loaded = null; await old.exit(); }
  const w = new Wllama({ default: new URL('wllama.wasm', base()).href }, { suppressNativeLog: true });
  // Threads need a cross-origin isolated page; wllama's own default is half the cores, which
  // is one on a two-core machine.
  const n_threads = self.crossOriginIsolated ? Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 4)) : 1;
  await w.loadModel([file], { n_ctx: nCtx, n_threads });
  wllama = w;
  loaded = file.name;
  return { name: file.name, bytes: file.size, threads: w.isMultithread() };
}
export async function llm_unload() {
  if (wllama) { const old = wllama; wllama = null; loaded = null; await old.exit(); }
}
export function llm_loaded() { return loaded; }
export async function llm_is_gguf(file) {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return String.fromCharCode(...head) === 'GGUF';
}
export async function llm_chat(body, signal) {
  if (!wllama) return null;
  const request = JSON.parse(body);
  delete request.model;
  const stream = await wllama.createChatCompletion({ ...request, stream: true, return_progress: true, abortSignal: signal });
  return stream[Symbol.asyncIterator]();
}
export async function llm_next(iterator) {
  const r = await iterator.next();
  return r.done ? null : JSON.stringify(r.value);
}
export async function llm_keep(file) {
  const handle = await (await dir()).getFileHandle(file.name, { create: true });
  const out = await handle.createWritable();
  await file.stream().pipeTo(out);
}
export async function llm_kept() {
  const out = [];
  for await (const [name, handle] of (await dir()).entries()) {
    if (handle.kind === 'file') out.push(await handle.getFile());
  }
  return out;
}
export async function llm_forget(name) {
  await (await dir()).removeEntry(name);
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn llm_load(file: &Blob, n_ctx: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn llm_unload() -> Result<JsValue, JsValue>;
    fn llm_loaded() -> Option<String>;
    #[wasm_bindgen(catch)]
    async fn llm_is_gguf(file: &Blob) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn llm_chat(body: &str, signal: &web_sys::AbortSignal) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn llm_next(iterator: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn llm_keep(file: &Blob) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn llm_kept() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn llm_forget(name: &str) -> Result<JsValue, JsValue>;
}

/// Tokens of context the model is loaded with: the prompt's evidence budget (4,000 characters
/// by default, about 1,300 tokens), the rules and the conversation, and the answer (512).
const N_CTX: u32 = 4096;
/// The most a model file may weigh: wllama's memory is at most 4 GiB, and the model's context
/// and work buffers need room beside its weights.
const MAX_BYTES_WASM: f64 = 3.0 * GIB;
const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// A model loaded in the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// Its file's name (the model the answers name).
    pub name: String,
    /// Its size.
    pub bytes: f64,
    /// Whether it runs on several threads (the page is cross-origin isolated).
    pub threads: bool,
}

/// A model file kept on this device.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    /// Its name.
    pub name: String,
    /// Its size.
    pub bytes: f64,
}

/// Why a model was not loaded.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadRefused {
    /// The file does not start as a GGUF file does.
    NotGguf,
    /// Larger than this tab can hold: at most `limit` bytes.
    TooLarge {
        /// The file's size.
        bytes: f64,
        /// The most this tab can load.
        limit: f64,
    },
    /// wllama failed (what it said).
    Failed(String),
}

/// The most a model file may weigh in this tab: [`MAX_BYTES_WASM`], or half of the device's
/// memory where the browser tells it (`navigator.deviceMemory`, in GB, coarse).
pub fn limit_bytes() -> f64 {
    let device = web_sys::window()
        .and_then(|w| Reflect::get(&w.navigator(), &"deviceMemory".into()).ok())
        .and_then(|v| v.as_f64());
    device.map_or(MAX_BYTES_WASM, |gb| (gb * GIB / 2.0).min(MAX_BYTES_WASM))
}

/// Where the page's model is. A picked file is only checked (its size, its first bytes); it
/// is loaded when a prompt is first sent to it, so a question answered without the model
/// (abstained, about the library) loads none.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelState {
    /// No file picked.
    None,
    /// A file picked and checked, loaded when a question needs it.
    Chosen {
        /// Its name.
        name: String,
        /// Its size.
        bytes: f64,
    },
    /// Being loaded.
    Loading {
        /// Its name.
        name: String,
        /// Its size.
        bytes: f64,
    },
    /// Loaded.
    Ready(Loaded),
    /// Not loaded, and why.
    Refused(LoadRefused),
}

/// What is told of each change of the model's state.
type Watcher = Box<dyn Fn(&ModelState)>;

thread_local! {
    static STATE: RefCell<ModelState> = const { RefCell::new(ModelState::None) };
    // The picked file (a handle to the disk's or the origin's file, not its bytes).
    static CHOSEN: RefCell<Option<File>> = const { RefCell::new(None) };
    // The settings view, told of every change.
    static WATCHER: RefCell<Option<Watcher>> = const { RefCell::new(None) };
}

fn set_state(state: ModelState) {
    STATE.with(|s| *s.borrow_mut() = state.clone());
    WATCHER.with(|w| {
        if let Some(w) = w.borrow().as_ref() {
            w(&state)
        }
    });
}

/// Where the page's model is.
pub fn state() -> ModelState {
    STATE.with(|s| s.borrow().clone())
}

/// Tells `f` of every change of [`state`] (one watcher: the settings view).
pub fn watch(f: impl Fn(&ModelState) + 'static) {
    WATCHER.with(|w| *w.borrow_mut() = Some(Box::new(f)));
}

/// The picked file, if any.
pub fn chosen_file() -> Option<File> {
    CHOSEN.with(|c| c.borrow().clone())
}

/// The model loaded, if any.
pub fn current() -> Option<Loaded> {
    match state() {
        ModelState::Ready(l) => Some(l),
        _ => None,
    }
}

/// Picks `file` as the model (after checking it is a GGUF file that fits the tab), freeing
/// any model loaded before; it loads when a question first needs it ([`ensure_loaded`]).
pub async fn choose(file: File) -> Result<(), LoadRefused> {
    let bytes = file.size();
    let limit = limit_bytes();
    let refused = |why: LoadRefused| {
        set_state(ModelState::Refused(why.clone()));
        Err(why)
    };
    if bytes > limit {
        return refused(LoadRefused::TooLarge { bytes, limit });
    }
    match llm_is_gguf(&file).await {
        Ok(v) if v.is_truthy() => {}
        Ok(_) => return refused(LoadRefused::NotGguf),
        Err(e) => return refused(LoadRefused::Failed(crate::AppError::js_text(&e))),
    }
    let _ = llm_unload().await;
    set_state(ModelState::Chosen {
        name: file.name(),
        bytes,
    });
    CHOSEN.with(|c| *c.borrow_mut() = Some(file));
    Ok(())
}

/// The picked model, loaded now if it is not yet.
pub async fn ensure_loaded() -> Result<Loaded, LoadRefused> {
    if let ModelState::Ready(l) = state() {
        if loaded().as_deref() == Some(&l.name) {
            return Ok(l);
        }
    }
    let Some(file) = chosen_file() else {
        return Err(LoadRefused::Failed("no model file picked".into()));
    };
    let bytes = file.size();
    set_state(ModelState::Loading {
        name: file.name(),
        bytes,
    });
    match llm_load(&file, N_CTX).await {
        Ok(info) => {
            let get = |k: &str| Reflect::get(&info, &k.into()).unwrap_or(JsValue::UNDEFINED);
            let loaded = Loaded {
                name: get("name").as_string().unwrap_or_default(),
                bytes: get("bytes").as_f64().unwrap_or(bytes),
                threads: get("threads").is_truthy(),
            };
            set_state(ModelState::Ready(loaded.clone()));
            Ok(loaded)
        }
        Err(e) => {
            let why = LoadRefused::Failed(crate::AppError::js_text(&e));
            set_state(ModelState::Refused(why.clone()));
            Err(why)
        }
    }
}

/// Frees the model loaded and forgets the picked file.
pub async fn unload() {
    CHOSEN.with(|c| *c.borrow_mut() = None);
    set_state(ModelState::None);
    let _ = llm_unload().await;
}

/// The name of the model loaded, if any.
pub fn loaded() -> Option<String> {
    llm_loaded()
}

/// Keeps `file` in the origin's private file system (streamed, not read into memory).
pub async fn keep(file: &File) -> Result<(), String> {
    llm_keep(file)
        .await
        .map(|_| ())
        .map_err(|e| crate::AppError::js_text(&e))
}

/// The model files kept on this device.
pub async fn kept() -> Vec<(Kept, File)> {
    let Ok(list) = llm_kept().await else {
        return Vec::new();
    };
    js_sys::Array::from(&list)
        .iter()
        .filter_map(|f| f.dyn_into::<File>().ok())
        .map(|f| {
            (
                Kept {
                    name: f.name(),
                    bytes: f.size(),
                },
                f,
            )
        })
        .collect()
}

/// Removes a kept model file.
pub async fn forget(name: &str) -> Result<(), String> {
    llm_forget(name)
        .await
        .map(|_| ())
        .map_err(|e| crate::AppError::js_text(&e))
}

/// The answer's stream from the model in the page: each chunk wllama yields, as the event a
/// server would send.
pub struct InPageBody {
    iterator: Option<JsValue>,
    pending: Vec<u8>,
    controller: AbortController,
}

impl Body for InPageBody {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Failure> {
        if !self.pending.is_empty() {
            return Ok(Some(std::mem::take(&mut self.pending)));
        }
        let Some(iterator) = &self.iterator else {
            return Ok(None);
        };
        match llm_next(iterator).await {
            Ok(v) => match v.as_string() {
                Some(json) => Ok(Some(format!("data: {json}\n\n").into_bytes())),
                None => {
                    self.iterator = None;
                    Ok(Some(b"data: [DONE]\n\n".to_vec()))
                }
            },
            Err(_) if self.controller.signal().aborted() => Err(Failure::Aborted),
            Err(e) => Err(Failure::Server {
                status: 500,
                detail: crate::AppError::js_text(&e),
            }),
        }
    }
}

/// Answers `request` (one meant for [`fonte_core::answer::llm::preset::IN_PAGE_BASE_URL`]) with
/// the model in the page, as its server would: the models listing, or the streamed chat.
pub async fn send(
    request: &HttpRequest,
    controller: AbortController,
) -> Result<(u16, Option<String>, InPageBody), Failure> {
    let name = match state() {
        ModelState::Chosen { name, .. }
        | ModelState::Loading { name, .. }
        | ModelState::Ready(Loaded { name, .. }) => name,
        ModelState::None | ModelState::Refused(_) => return Err(Failure::NoModel),
    };
    let body = |text: String| InPageBody {
        iterator: None,
        pending: text.into_bytes(),
        controller: controller.clone(),
    };
    if request.method == Method::Get {
        let listing =
            serde_json::json!({ "object": "list", "data": [{ "id": name, "object": "model" }] });
        return Ok((200, None, body(listing.to_string())));
    }
    // Loaded when a prompt is first sent to it (an abstained question never gets here).
    ensure_loaded().await.map_err(|why| match why {
        LoadRefused::Failed(detail) => Failure::Server {
            status: 500,
            detail,
        },
        _ => Failure::NoModel,
    })?;
    let iterator = llm_chat(&request.body, &controller.signal())
        .await
        .map_err(|e| {
            if controller.signal().aborted() {
                Failure::Aborted
            } else {
                Failure::Rejected {
                    status: 400,
                    detail: crate::AppError::js_text(&e),
                }
            }
        })?;
    if iterator.is_null() {
        return Err(Failure::NoModel);
    }
    Ok((
        200,
        None,
        InPageBody {
            iterator: Some(iterator),
            pending: Vec::new(),
            controller,
        },
    ))
}
