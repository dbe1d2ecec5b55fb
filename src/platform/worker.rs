//! A dedicated worker as the page holds it: its messages and errors arrive, in order, in one
//! inbox; dropping it unhooks and terminates the worker. The reader and the embedding workers
//! are built on it.

use futures_channel::mpsc::{unbounded, UnboundedReceiver};
use futures_util::future::{select, Either};
use futures_util::StreamExt;
use gloo::timers::future::TimeoutFuture;
use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};

/// A started worker; `M` is what one message or error becomes for its owner.
pub struct WorkerHandle<M> {
    worker: Worker,
    inbox: UnboundedReceiver<M>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl<M> Drop for WorkerHandle<M> {
    fn drop(&mut self) {
        // Unhooked first: an event already queued would otherwise call a dropped closure.
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

impl<M: 'static> WorkerHandle<M> {
    /// Starts the worker script at `url` (made absolute against the page): `message` turns each
    /// message's data into an `M`, `error` each uncaught error's text (the error is handled
    /// here, so the page shows it where its owner says, not as an uncaught error).
    pub fn start(
        url: &str,
        message: impl Fn(JsValue) -> M + 'static,
        error: impl Fn(String) -> M + 'static,
    ) -> Result<Self, JsValue> {
        let worker = Worker::new(&crate::platform::assets::absolute(url))?;
        let (tx, inbox) = unbounded();
        let to_inbox = tx.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let _ = to_inbox.unbounded_send(message(e.data()));
        });
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
            e.prevent_default();
            let _ = tx.unbounded_send(error(e.message()));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Self {
            worker,
            inbox,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Posts `message`, transferring the buffers in `transfer`.
    pub fn post(&self, message: &JsValue, transfer: &Array) -> Result<(), JsValue> {
        self.worker.post_message_with_transfer(message, transfer)
    }

    /// The next message or error; `None` once the worker is gone.
    pub async fn next(&mut self) -> Option<M> {
        self.inbox.next().await
    }

    /// The next message or error if one comes within `ms`.
    pub async fn next_within(&mut self, ms: u32) -> Result<Option<M>, Elapsed> {
        match select(self.inbox.next(), TimeoutFuture::new(ms)).await {
            Either::Left((message, _)) => Ok(message),
            Either::Right(_) => Err(Elapsed),
        }
    }
}

/// Nothing came from the worker in the time allowed.
#[derive(Debug)]
pub struct Elapsed;
