//! The service worker of a published folder (`public/sw.js`, named by the page's
//! `<meta name="fonte-offline">`, which only `scripts/publish.py` writes): registered before
//! anything else loads, so the page that goes on is served by it (cached, cross-origin
//! isolated). A development build has no such meta and no service worker.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

// Set while a reload for isolation is under way, so a browser whose service worker cannot
// isolate the page reloads once, not forever.
const RELOADED: &str = "fonte.sw-reload";

fn isolated() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// The page's service worker container: none outside a secure context (a plain-http host
/// name), where `navigator.serviceWorker` is undefined.
fn container(window: &web_sys::Window) -> Option<web_sys::ServiceWorkerContainer> {
    let navigator = window.navigator();
    let value = js_sys::Reflect::get(&navigator, &"serviceWorker".into()).ok()?;
    (!value.is_undefined()).then(|| navigator.service_worker())
}

fn log(what: &str, e: &JsValue) {
    web_sys::console::warn_1(
        &format!("Fonte offline: {what}: {}", crate::AppError::js_text(e)).into(),
    );
}

/// Registers the service worker if the page names one. `true` when the page is reloading
/// (to be served by the worker, or by a newer version of it): start nothing else.
pub async fn start() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let Some(script) = window
        .document()
        .and_then(|d| d.query_selector("meta[name=fonte-offline]").ok().flatten())
        .and_then(|m| m.get_attribute("content"))
    else {
        return false;
    };
    let Some(container) = container(&window) else {
        return false;
    };
    let registration: web_sys::ServiceWorkerRegistration =
        match JsFuture::from(container.register(&script)).await {
            Ok(r) => r.unchecked_into(),
            Err(e) => {
                log("the service worker could not be registered", &e);
                return false;
            }
        };
    let session = window.session_storage().ok().flatten();
    let reloaded = session
        .as_ref()
        .and_then(|s| s.get_item(RELOADED).ok().flatten())
        .is_some();
    let reload = || {
        if let Some(s) = &session {
            let _ = s.set_item(RELOADED, "1");
        }
        let _ = window.location().reload();
        true
    };
    // A new version installed on an earlier visit: it takes over now, before this page has
    // loaded any of the old version's files.
    if let (Some(waiting), Some(_)) = (registration.waiting(), container.controller()) {
        if !reloaded {
            let changed = js_sys::Promise::new(&mut |resolve, _| {
                container.set_oncontrollerchange(Some(&resolve));
            });
            let _ = waiting.post_message(&"fonte-update".into());
            let _ = JsFuture::from(changed).await;
            return reload();
        }
    }
    if isolated() {
        if let Some(s) = &session {
            let _ = s.remove_item(RELOADED);
        }
        return false;
    }
    if reloaded {
        // Reloaded once and still not isolated: go on without threads.
        return false;
    }
    // First visit: wait for the worker to be active (the app's own files are cached by
    // then), then reload to be served by it.
    match container.ready() {
        Ok(ready) => {
            if let Err(e) = JsFuture::from(ready).await {
                log("the service worker did not start", &e);
                return false;
            }
            reload()
        }
        Err(e) => {
            log("the service worker did not start", &e);
            false
        }
    }
}

/// Asks the service worker to cache the rest of the app (runtime, models, pdf.js) in the
/// background, so everything works offline even before it was used once.
pub fn warm() {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Some(worker) = container(&window).and_then(|c| c.controller()) {
        let _ = worker.post_message(&"fonte-warm".into());
    }
}
