//! The translation worker: a wasm module of its own (Trunk `data-type="worker"`), running
//! `fonte_core::answer::translate::protocol::Worker` so that loading the two models (about 160
//! MB resident) and translating a question never block the page
//! (`platform::translator` starts it when a question first needs a translation).
//!
//! Messages: the page sends `[request, file, file, …]` (`Uint8Array`s: a postcard `Request`,
//! then the model files of a `Load`); the worker answers postcard `Reply` bytes, or
//! `{ panic: message }` just before a panic aborts it.

#[cfg(target_arch = "wasm32")]
fn main() {
    imp::run();
}

// The worker only exists in the browser.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("fonte-translate-worker runs in the browser, started by the app");
    std::process::exit(2);
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::RefCell;

    use fonte_core::answer::translate::protocol::{decode, encode, Reply, Request, Worker};
    use js_sys::{Array, Object, Reflect, Uint8Array};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    thread_local! {
        static WORKER: RefCell<Worker> = RefCell::new(Worker::default());
    }

    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    fn post(reply: &Reply) {
        if let Ok(bytes) = encode(reply) {
            let message = Uint8Array::from(&bytes[..]);
            let transfer = Array::of1(&message.buffer());
            let _ = scope().post_message_with_transfer(&message, &transfer);
        }
    }

    fn on_message(event: MessageEvent) {
        let parts: Array = event.data().unchecked_into();
        let header = Uint8Array::new(&parts.get(0)).to_vec();
        let files: Vec<Vec<u8>> = (1..parts.length())
            .map(|i| Uint8Array::new(&parts.get(i)).to_vec())
            .collect();
        let reply = match decode::<Request>(&header) {
            Ok(request) => WORKER.with(|w| w.borrow_mut().handle(request, &files)),
            Err(e) => Reply::Failed(e.to_string()),
        };
        post(&reply);
    }

    pub fn run() {
        std::panic::set_hook(Box::new(|info| {
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
