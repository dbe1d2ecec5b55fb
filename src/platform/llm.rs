//! The core's LLM [`Transport`] over the browser's `fetch`: the body is read from its
//! `ReadableStream` as it arrives, a stop aborts the request (`AbortController`), and a server
//! that sends nothing for too long is given up on. A request for the model that runs in the
//! page ([`IN_PAGE_BASE_URL`]) is answered by it instead ([`super::browser_llm`]), never
//! fetched.

use std::cell::RefCell;

use fonte_core::answer::llm::preset::IN_PAGE_BASE_URL;
use fonte_core::answer::llm::{Body, Failure, HttpRequest, Method, Transport};
use futures_util::future::{select, Either};
use gloo::net::http::Request;
use gloo::timers::future::TimeoutFuture;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader};

/// Longest wait for the response's headers: a local server may load its model first.
const FIRST_RESPONSE_MS: u32 = 120_000;
/// Longest silence inside a stream.
const STALL_MS: u32 = 60_000;

/// Sends requests with `fetch`; [`stop`](Self::stop) aborts the one in flight.
#[derive(Default)]
pub struct Fetch {
    controller: RefCell<Option<AbortController>>,
}

impl Fetch {
    /// A transport with nothing in flight.
    pub fn new() -> Self {
        Self::default()
    }

    /// Aborts the request in flight, if any: its body ends with [`Failure::Aborted`].
    pub fn stop(&self) {
        if let Some(c) = self.controller.borrow_mut().take() {
            c.abort();
        }
    }

    fn is_stopped(&self, controller: &AbortController) -> bool {
        controller.signal().aborted()
    }
}

/// `fut`, or `None` after `ms`.
pub(crate) async fn within<T>(ms: u32, fut: impl std::future::Future<Output = T>) -> Option<T> {
    let fut = std::pin::pin!(fut);
    match select(fut, TimeoutFuture::new(ms)).await {
        Either::Left((value, _)) => Some(value),
        Either::Right(_) => None,
    }
}

/// A response body: fetched, or the model in the page's stream.
pub enum PageBody {
    /// From `fetch`.
    Fetched(StreamBody),
    /// From the model in the page.
    InPage(super::browser_llm::InPageBody),
}

impl Body for PageBody {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Failure> {
        match self {
            PageBody::Fetched(b) => b.chunk().await,
            PageBody::InPage(b) => b.chunk().await,
        }
    }
}

/// A streamed response body.
pub struct StreamBody {
    reader: Option<ReadableStreamDefaultReader>,
    controller: AbortController,
}

impl Body for StreamBody {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Failure> {
        let Some(reader) = &self.reader else {
            return Ok(None);
        };
        let read = match within(STALL_MS, JsFuture::from(reader.read())).await {
            Some(r) => r,
            None => {
                self.controller.abort();
                return Err(Failure::TimedOut);
            }
        };
        let result = match read {
            Ok(r) => r,
            Err(_) if self.controller.signal().aborted() => return Err(Failure::Aborted),
            // The connection dropped mid-body.
            Err(_) => return Err(Failure::Cut),
        };
        let done = Reflect::get(&result, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            self.reader = None;
            return Ok(None);
        }
        let value = Reflect::get(&result, &"value".into()).map_err(|_| Failure::Malformed {
            detail: "a stream chunk without bytes".into(),
        })?;
        Ok(Some(value.unchecked_into::<Uint8Array>().to_vec()))
    }
}

/// What `fetch` throws when no response comes: refused, unknown host, blocked by CORS or by
/// the page's Content-Security-Policy (a browser says "Failed to fetch" for all of them).
fn unreachable(e: gloo::net::Error) -> Failure {
    Failure::Unreachable {
        detail: e.to_string(),
    }
}

impl Transport for Fetch {
    type Body = PageBody;

    async fn send(
        &self,
        request: &HttpRequest,
    ) -> Result<(u16, Option<String>, PageBody), Failure> {
        let controller = AbortController::new().map_err(|_| Failure::Unreachable {
            detail: "AbortController is not available".into(),
        })?;
        *self.controller.borrow_mut() = Some(controller.clone());
        if request.url.starts_with(IN_PAGE_BASE_URL) {
            let (status, retry, body) = super::browser_llm::send(request, controller).await?;
            return Ok((status, retry, PageBody::InPage(body)));
        }
        let signal = controller.signal();
        let mut builder = match request.method {
            Method::Get => Request::get(&request.url),
            Method::Post => Request::post(&request.url),
        };
        for (k, v) in &request.headers {
            builder = builder.header(k, v);
        }
        // A redirect is never followed (the core refuses it): a browser drops `Authorization`
        // on a cross-origin redirect but not `x-api-key`, and the user set one address.
        let builder = builder
            .abort_signal(Some(&signal))
            .redirect(web_sys::RequestRedirect::Manual);
        let built = match request.method {
            Method::Get => builder.build(),
            Method::Post => builder.body(request.body.as_str()),
        }
        .map_err(unreachable)?;
        let response = match within(FIRST_RESPONSE_MS, built.send()).await {
            None => {
                controller.abort();
                return Err(Failure::TimedOut);
            }
            Some(Err(_)) if self.is_stopped(&controller) => return Err(Failure::Aborted),
            Some(Err(e)) => return Err(unreachable(e)),
            Some(Ok(r)) => r,
        };
        if response.type_() == web_sys::ResponseType::Opaqueredirect {
            return Err(Failure::Redirected);
        }
        let retry_after = response.headers().get("retry-after");
        let reader = response.body().and_then(|b| {
            b.get_reader()
                .dyn_into::<ReadableStreamDefaultReader>()
                .ok()
        });
        Ok((
            response.status(),
            retry_after,
            PageBody::Fetched(StreamBody { reader, controller }),
        ))
    }
}
