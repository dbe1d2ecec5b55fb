//! The reader's worker: a second wasm module, built by Trunk (`data-type="worker"` in
//! index.html), that runs `fonte_core::ingest::reader` on the files the page sends it. Everything file
//! content can crash runs here, never on the page: a panic or an allocation past the memory
//! budget aborts this module only, after it has said why, and the page's watchdog
//! (`platform::reader`) restarts it for the next file.
//!
//! Messages: the page sends `[request, file]` (two `Uint8Array`s: a postcard
//! `reader::Request` and the file's bytes); the worker answers postcard `reader::Reply` bytes,
//! `{ panic: message }` just before a panic aborts it, or `-1` when an allocation would pass the
//! budget.

#[cfg(target_arch = "wasm32")]
mod budget;

#[cfg(target_arch = "wasm32")]
fn main() {
    imp::run();
}

// The worker only exists in the browser.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("fonte-worker runs in the browser, started by the app");
    std::process::exit(2);
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::{Cell, RefCell};

    use fonte_core::ingest::reader::{decode, encode, Reader, Reply, Request};
    use js_sys::{Array, Object, Reflect, Uint8Array};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    /// Progress messages at most this often, ms (one per page of a 10,000-page file would
    /// flood the page for nothing).
    const PROGRESS_MS: f64 = 100.0;

    thread_local! {
        static READER: RefCell<Reader> = RefCell::new(Reader::new());
        static LAST_PROGRESS: Cell<f64> = const { Cell::new(0.0) };
    }

    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    fn post(reply: &Reply) {
        // Encoding our own enum cannot fail; if it ever did, the page's watchdog would time
        // the file out rather than wait forever.
        if let Ok(bytes) = encode(reply) {
            let message = Uint8Array::from(&bytes[..]);
            let transfer = Array::of1(&message.buffer());
            let _ = scope().post_message_with_transfer(&message, &transfer);
        }
    }

    fn progress(reply: Reply) {
        let now = js_sys::Date::now();
        if now - LAST_PROGRESS.get() >= PROGRESS_MS {
            LAST_PROGRESS.set(now);
            post(&reply);
        }
    }

    fn on_message(event: MessageEvent) {
        let parts: Array = event.data().unchecked_into();
        let header = Uint8Array::new(&parts.get(0)).to_vec();
        let file = Uint8Array::new(&parts.get(1)).to_vec();
        let reply = match decode::<Request>(&header) {
            Ok(request) => {
                if let Request::Init { memory_mib, .. } = &request {
                    super::budget::set_mib(*memory_mib);
                }
                READER.with(|r| r.borrow_mut().handle(request, &file, &mut progress))
            }
            Err(e) => Reply::Failed(e.to_string()),
        };
        drop(file);
        post(&reply);
    }

    pub fn run() {
        super::budget::start(scope());
        std::panic::set_hook(Box::new(|info| {
            // Said before the module aborts, so the page can tell the user what stopped the
            // reader on this file.
            let message = Object::new();
            let _ = Reflect::set(&message, &"panic".into(), &info.to_string().into());
            let _ = scope().post_message(&message);
            console_error_panic_hook::hook(info);
        }));
        let handler = Closure::<dyn FnMut(MessageEvent)>::new(on_message);
        scope().set_onmessage(Some(handler.as_ref().unchecked_ref()));
        // Lives as long as the worker.
        handler.forget();
        post(&Reply::Ready);
    }
}
