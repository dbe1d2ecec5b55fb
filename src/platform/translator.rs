//! The page's side of the translation worker (`src/translate_worker`,
//! `fonte_core::answer::translate::protocol`): started when a question first needs a
//! translation, each direction's model fetched from the app's own `models/` folder (cached by
//! the service worker of a published site) and loaded when a question first needs it. One
//! per page: the models do not depend on the library or its embedding model. A worker that
//! panics or runs past its time limit is terminated; the next question starts a fresh one.

use std::cell::RefCell;

use async_lock::Mutex;
use fonte_core::answer::translate::local::{folder_into, Manifest};
use fonte_core::answer::translate::protocol::{decode, encode, LoadDirection, Reply, Request};
use fonte_core::answer::translate::Translation;
use fonte_core::search::lang::Lang;
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::assets::{fetch_buffer, fetch_bytes};
use super::worker::{Elapsed, WorkerHandle};
use crate::error::TranslatorFailed;
use crate::{AppError, AppResult};

/// The worker's loader, written by Trunk next to the app (index.html).
const WORKER_URL: &str = "fonte-translate-worker_loader.js";
/// A fresh worker must say it is ready within this long (it compiles its module).
const START_MS: u32 = 30_000;
/// Parsing one direction's files (24 MB) in the worker.
const LOAD_MS: u32 = 60_000;
/// One question (≤ 400 characters, decoding bounded by the engine): natively about 20 ms.
const TRANSLATE_MS: u32 = 20_000;

enum Message {
    Reply(Vec<u8>),
    Panicked(String),
    Died(String),
}

type Live = WorkerHandle<Message>;

/// The started worker and the directions it has loaded.
struct Started {
    worker: Live,
    loaded: Vec<Lang>,
}

/// The page's translator (see the module's comment).
#[derive(Default)]
pub struct Translator {
    // One request at a time, held across its awaits.
    live: Mutex<Option<Started>>,
}

thread_local! {
    static SHARED: RefCell<Option<std::rc::Rc<Translator>>> = const { RefCell::new(None) };
}

/// The page's one translator (created on first use; nothing is fetched until a question
/// needs it).
pub fn shared() -> std::rc::Rc<Translator> {
    SHARED.with(|s| s.borrow_mut().get_or_insert_with(Default::default).clone())
}

impl Translator {
    /// `question` in `to`, translated in the worker; `None` when nothing usable came out.
    pub async fn translate(&self, question: &str, to: Lang) -> AppResult<Option<Translation>> {
        let mut live = self.live.lock().await;
        let result = Self::on(&mut live, question, to).await;
        if result.is_err() {
            // Dropping it terminates the worker; the next question starts a fresh one.
            *live = None;
        }
        result
    }

    async fn on(
        live: &mut Option<Started>,
        question: &str,
        to: Lang,
    ) -> AppResult<Option<Translation>> {
        if live.is_none() {
            *live = Some(Started {
                worker: start().await?,
                loaded: Vec::new(),
            });
        }
        let started = live.as_mut().expect("started above");
        if !started.loaded.contains(&to) {
            load(&mut started.worker, to).await?;
            started.loaded.push(to);
        }
        let request = Request::Translate {
            question: question.to_string(),
            to,
        };
        send(&started.worker, &request, Vec::new())?;
        match reply(&mut started.worker, TRANSLATE_MS).await? {
            Reply::Translated(t) => Ok(t),
            Reply::Failed(why) => Err(TranslatorFailed::Refused(why).into()),
            other => Err(unexpected(&other)),
        }
    }
}

/// Starts a worker and waits until it is ready.
async fn start() -> AppResult<Live> {
    let message = |data: JsValue| {
        if let Some(bytes) = data.dyn_ref::<Uint8Array>() {
            Message::Reply(bytes.to_vec())
        } else {
            let why = js_sys::Reflect::get(&data, &"panic".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_else(|| AppError::js_text(&data));
            Message::Panicked(why)
        }
    };
    let mut live = Live::start(WORKER_URL, message, Message::Died)
        .map_err(|e| TranslatorFailed::Crashed(AppError::js_text(&e)))?;
    match reply(&mut live, START_MS).await? {
        Reply::Ready => Ok(live),
        other => Err(unexpected(&other)),
    }
}

/// Fetches the direction into `to` (its manifest, then its three files, each checked in the
/// worker against the manifest before it is parsed) and loads it.
async fn load(worker: &mut Live, to: Lang) -> AppResult<()> {
    let dir = format!("models/{}/", folder_into(to));
    let manifest = Manifest::parse(&fetch_bytes(&format!("{dir}manifest.json")).await?)?;
    let listed = manifest.files()?;
    let mut files = Vec::with_capacity(3);
    for (name, _) in listed {
        files.push(fetch_buffer(&format!("{dir}{name}")).await?);
    }
    let from = match to {
        Lang::En => Lang::Pt,
        Lang::Pt => Lang::En,
    };
    let request = Request::Load(vec![LoadDirection {
        from,
        to,
        sha256: listed.map(|(_, sha)| sha.to_string()),
    }]);
    send(worker, &request, files)?;
    match reply(worker, LOAD_MS).await? {
        Reply::Loaded => Ok(()),
        Reply::Failed(why) => Err(TranslatorFailed::Refused(why).into()),
        other => Err(unexpected(&other)),
    }
}

/// The worker's next reply within `ms`.
async fn reply(worker: &mut Live, ms: u32) -> AppResult<Reply> {
    let mut panicked = None;
    let deadline = js_sys::Date::now() + f64::from(ms);
    loop {
        let left = (deadline - js_sys::Date::now()).max(0.0) as u32;
        match worker.next_within(left).await {
            Ok(Some(Message::Reply(bytes))) => return Ok(decode::<Reply>(&bytes)?),
            // The abort that follows arrives as an error event; the panic says why.
            Ok(Some(Message::Panicked(why))) => panicked = Some(why),
            Ok(Some(Message::Died(why))) => {
                return Err(TranslatorFailed::Crashed(panicked.unwrap_or(why)).into())
            }
            Ok(None) => return Err(TranslatorFailed::Crashed("the worker went away".into()).into()),
            Err(Elapsed) => {
                return Err(TranslatorFailed::TimedOut {
                    secs: ms.div_ceil(1000),
                }
                .into())
            }
        }
    }
}

/// Posts `[request, file, …]`, transferring every buffer (the model files never enter the
/// page's wasm memory).
fn send(worker: &Live, request: &Request, files: Vec<js_sys::ArrayBuffer>) -> AppResult<()> {
    let header = Uint8Array::from(&encode(request)?[..]);
    let parts = Array::of1(&header);
    let transfer = Array::of1(&header.buffer());
    for file in files {
        parts.push(&Uint8Array::new(&file));
        transfer.push(&file);
    }
    worker
        .post(&parts, &transfer)
        .map_err(|e| TranslatorFailed::Crashed(AppError::js_text(&e)).into())
}

fn unexpected(reply: &Reply) -> AppError {
    TranslatorFailed::Refused(format!("unexpected answer {reply:?}")).into()
}
