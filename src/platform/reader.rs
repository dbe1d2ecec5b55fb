//! The page's side of the reader worker (`src/worker`, `fonte_core::ingest::reader`): starts it, hands
//! it one file at a time, and watches it. A file whose reading panics, passes the worker's
//! memory budget or runs past [`time_limit_ms`] stops the worker; the file is reported with
//! why ([`Stopped`]), the worker is terminated and a fresh one starts for the next file. The
//! page itself never parses a PDF.

use async_lock::Mutex;
use fonte_core::ingest::reader::{decode, encode, Reply, Request};
use fonte_core::ingest::Prepared;
use fonte_core::pdf::{Report, Stopped};
use fonte_core::search::chunk::ChunkParams;
use fonte_core::share::bundle::{Accepted, Bundle, BundleError, ManifestDocument};
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::assets::address_number;
use super::worker::{Elapsed, WorkerHandle};
use crate::{AppError, AppResult};

/// The worker's loader, written by Trunk next to the app (index.html).
const WORKER_URL: &str = "fonte-worker_loader.js";
/// Per file: this long, plus [`MS_PER_MB`] for each MB. The largest fixture (fullrefman.pdf,
/// 6.5 MB, 1,000 pages) reads in about 12 s in the worker (33 s allowed); a small hostile file
/// is stopped at 20 s.
const BASE_MS: f64 = 20_000.0;
const MS_PER_MB: f64 = 2_000.0;
/// A fresh worker must say it is ready within this long (it compiles its module).
const START_MS: u32 = 30_000;

/// How long reading a file of `bytes` may take, ms: `?reader-ms=N` in the page address makes
/// it at most N (diagnosis, and the end-to-end test of the watchdog). A link can only lower
/// the limits, never switch the watchdog off.
pub fn time_limit_ms(bytes: usize) -> f64 {
    let limit = BASE_MS + MS_PER_MB * bytes as f64 / 1e6;
    address_number("reader-ms").map_or(limit, |n| n.min(limit))
}

/// The worker's memory budget, MiB: [`BUDGET_MIB`], or less with `?reader-mib=N`.
fn memory_mib() -> u32 {
    address_number("reader-mib").map_or(BUDGET_MIB as u32, |n| (n as u32).min(BUDGET_MIB as u32))
}

/// What the worker sent, as the page sees it.
/// Why the reader worker refused a bundle.
#[derive(Debug, Clone, PartialEq)]
pub enum BundleRefused {
    /// The format says why.
    Invalid(BundleError),
    /// The worker stopped on it (memory, time, a panic).
    Stopped(Stopped),
}

impl From<BundleRefused> for AppError {
    fn from(refused: BundleRefused) -> Self {
        match refused {
            BundleRefused::Invalid(e) => e.into(),
            BundleRefused::Stopped(why) => AppError::ReaderStopped(why),
        }
    }
}

enum Message {
    Reply(Vec<u8>),
    Panicked(String),
    OverBudget,
    Died(String),
}

/// A started worker (dropping it terminates the worker).
type Live = WorkerHandle<Message>;

/// The reader worker and what it needs to start: the tokenizer chunking counts with.
pub struct ReaderWorker {
    // One request at a time; the lock is held across the request's awaits, so a second caller
    // waits instead of finding the worker gone.
    live: Mutex<Option<Live>>,
    tokenizer: Option<Vec<u8>>,
    max_tokens: usize,
}

impl ReaderWorker {
    /// A reader for a model's tokenizer (started on first use).
    pub fn new(tokenizer: Vec<u8>, max_tokens: usize) -> Self {
        Self {
            live: Mutex::new(None),
            tokenizer: Some(tokenizer),
            max_tokens,
        }
    }

    /// A reader that only validates bundles (a hosted corpus is read before any model).
    pub fn for_bundles() -> Self {
        Self {
            live: Mutex::new(None),
            tokenizer: None,
            max_tokens: 0,
        }
    }

    /// Whether the file can be opened at all: `Ok(None)` when it can, else its report.
    pub async fn open(
        &self,
        name: &str,
        file: &[u8],
        password: Option<String>,
    ) -> AppResult<Result<Option<Report>, Stopped>> {
        let request = Request::Open { password };
        Ok(
            match self.request(name, &request, file, &mut |_, _| {}).await? {
                Ok(Reply::Opened(report)) => Ok(report),
                Ok(other) => return Err(unexpected(&other)),
                Err(stopped) => Err(stopped),
            },
        )
    }

    /// Reads and chunks the file; `progress(read, of)` while its pages are read.
    pub async fn read(
        &self,
        name: &str,
        file: &[u8],
        password: Option<String>,
        params: ChunkParams,
        progress: &mut dyn FnMut(u32, u32),
    ) -> AppResult<Result<Prepared, Stopped>> {
        let request = Request::Read {
            name: name.to_string(),
            password,
            params,
        };
        Ok(match self.request(name, &request, file, progress).await? {
            Ok(Reply::Prepared(p)) => Ok(*p),
            Ok(other) => return Err(unexpected(&other)),
            Err(stopped) => Err(stopped),
        })
    }

    /// Validates a bundle in the worker: the page never parses its untrusted bytes. A bundle
    /// that makes the worker stop (its memory budget, its time limit) is refused for that, and
    /// one of a model not in `accept` from its manifest alone.
    pub async fn read_bundle(
        &self,
        file: &[u8],
        accept: Vec<Accepted>,
    ) -> AppResult<Result<Bundle, BundleRefused>> {
        self.bundle(&Request::ReadBundle { accept }, file).await
    }

    /// Validates the index of a hosted bundle in the worker: `window` is its bytes from
    /// offset `at`, `head` its header.
    pub async fn read_hosted(
        &self,
        head: &[u8],
        total: u64,
        at: u64,
        window: &[u8],
        accept: Vec<Accepted>,
    ) -> AppResult<Result<Bundle, BundleRefused>> {
        let request = Request::ReadHosted {
            head: head.to_vec(),
            total,
            at,
            accept,
        };
        self.bundle(&request, window).await
    }

    /// Checks (and inflates) one PDF of a hosted bundle in the worker: `bytes` is its
    /// section, `document` the manifest's entry for it.
    pub async fn read_hosted_pdf(
        &self,
        head: &[u8],
        total: u64,
        doc: usize,
        document: ManifestDocument,
        bytes: &[u8],
    ) -> AppResult<Result<Vec<u8>, BundleRefused>> {
        let request = Request::ReadHostedPdf {
            head: head.to_vec(),
            total,
            doc: doc as u32,
            document: Box::new(document),
        };
        Ok(
            match self
                .request("bundle", &request, bytes, &mut |_, _| {})
                .await?
            {
                Ok(Reply::Pdf(Ok(pdf))) => Ok(pdf),
                Ok(Reply::Pdf(Err(e))) => Err(BundleRefused::Invalid(e)),
                Ok(other) => return Err(unexpected(&other)),
                Err(stopped) => Err(BundleRefused::Stopped(stopped)),
            },
        )
    }

    async fn bundle(
        &self,
        request: &Request,
        file: &[u8],
    ) -> AppResult<Result<Bundle, BundleRefused>> {
        Ok(
            match self
                .request("bundle", request, file, &mut |_, _| {})
                .await?
            {
                Ok(Reply::Bundle(Ok(bundle))) => Ok(*bundle),
                Ok(Reply::Bundle(Err(e))) => Err(BundleRefused::Invalid(e)),
                Ok(other) => return Err(unexpected(&other)),
                Err(stopped) => Err(BundleRefused::Stopped(stopped)),
            },
        )
    }

    async fn request(
        &self,
        name: &str,
        request: &Request,
        file: &[u8],
        progress: &mut dyn FnMut(u32, u32),
    ) -> AppResult<Result<Reply, Stopped>> {
        let mut live = self.live.lock().await;
        if live.is_none() {
            *live = Some(self.start().await?);
        }
        let worker = live.as_mut().expect("started above");
        send(worker, request, file)?;
        let deadline = js_sys::Date::now() + time_limit_ms(file.len());
        let mut panicked = None;
        let stopped = loop {
            let left = (deadline - js_sys::Date::now()).max(0.0) as u32;
            let message = match worker.next_within(left).await {
                Ok(Some(m)) => m,
                Ok(None) => Message::Died("the worker went away".into()),
                Err(Elapsed) => {
                    break Stopped::TimedOut {
                        secs: (time_limit_ms(file.len()) / 1000.0).round() as u32,
                    }
                }
            };
            match message {
                Message::Reply(bytes) => match decode::<Reply>(&bytes)? {
                    Reply::Progress { read, of } => progress(read, of),
                    Reply::Failed(why) => {
                        return Err(AppError::Runtime(format!("PDF reader: {why}")))
                    }
                    reply => return Ok(Ok(reply)),
                },
                // The abort that follows arrives as an error event; the panic says why.
                Message::Panicked(why) => panicked = Some(why),
                Message::OverBudget => break Stopped::OutOfMemory { mib: memory_mib() },
                Message::Died(why) => {
                    break match panicked.take() {
                        Some(message) => Stopped::Panicked { message },
                        None => Stopped::Crashed { message: why },
                    }
                }
            }
        };
        // Dropping it terminates the worker; the next request starts a fresh one.
        *live = None;
        web_sys::console::warn_1(
            &format!("Fonte: the PDF reader stopped on {name} ({stopped:?}); restarting it").into(),
        );
        Ok(Err(stopped))
    }

    /// Starts a worker and waits until it is ready and has the tokenizer.
    async fn start(&self) -> AppResult<Live> {
        let failed =
            |e: JsValue| AppError::Runtime(format!("PDF reader: {}", AppError::js_text(&e)));
        let message = |data: JsValue| {
            if let Some(bytes) = data.dyn_ref::<Uint8Array>() {
                Message::Reply(bytes.to_vec())
            } else if data.as_f64() == Some(-1.0) {
                Message::OverBudget
            } else {
                let why = js_sys::Reflect::get(&data, &"panic".into())
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_else(|| AppError::js_text(&data));
                Message::Panicked(why)
            }
        };
        // An uncaught error is the worker's end (the page shows the file's row for it).
        let mut live = Live::start(WORKER_URL, message, Message::Died).map_err(failed)?;
        let not_ready = || AppError::Runtime("PDF reader: the worker did not start".into());
        match live.next_within(START_MS).await {
            Ok(Some(Message::Reply(bytes))) if decode::<Reply>(&bytes)? == Reply::Ready => {}
            _ => return Err(not_ready()),
        }
        let init = Request::Init {
            tokenizer: self.tokenizer.clone(),
            max_tokens: self.max_tokens,
            memory_mib: memory_mib(),
        };
        send(&live, &init, &[])?;
        match live.next_within(START_MS).await {
            Ok(Some(Message::Reply(bytes))) => match decode::<Reply>(&bytes)? {
                Reply::Initialized => Ok(live),
                Reply::Failed(why) => Err(AppError::Runtime(format!("PDF reader: {why}"))),
                _ => Err(not_ready()),
            },
            _ => Err(not_ready()),
        }
    }
}

/// The worker's memory budget, MiB (src/worker/budget.rs).
pub const BUDGET_MIB: u64 = 1024;

/// Posts `[request, file]`, transferring both buffers (the file is copied once, out of the
/// page's wasm memory).
fn send(worker: &Live, request: &Request, file: &[u8]) -> AppResult<()> {
    let header = Uint8Array::from(&encode(request)?[..]);
    let body = Uint8Array::from(file);
    let parts = Array::of2(&header, &body);
    let transfer = Array::of2(&header.buffer(), &body.buffer());
    worker
        .post(&parts, &transfer)
        .map_err(|e| AppError::Runtime(format!("PDF reader: {}", AppError::js_text(&e))))
}

fn unexpected(reply: &Reply) -> AppError {
    AppError::Runtime(format!("PDF reader: unexpected answer {reply:?}"))
}
