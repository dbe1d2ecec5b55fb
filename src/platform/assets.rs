//! Fetching the app's own static files (model, tokenizer, manifest) as bytes, and reading
//! the page address.

use gloo::net::http::Request;

use crate::{AppError, AppResult};

/// GETs `url` (same origin as the app) and returns its body.
pub async fn fetch_bytes(url: &str) -> AppResult<Vec<u8>> {
    let asset_err = |reason: String| AppError::Asset {
        url: url.to_string(),
        reason,
    };
    let resp = Request::get(url)
        .send()
        .await
        .map_err(|e| asset_err(e.to_string()))?;
    if !resp.ok() {
        return Err(asset_err(format!("HTTP {}", resp.status())));
    }
    resp.binary().await.map_err(|e| asset_err(e.to_string()))
}

/// GETs `url` (same origin as the app) and returns its body as a JavaScript buffer, never
/// copied into the page's wasm memory (which does not shrink): for large files handed on to a
/// worker.
pub async fn fetch_buffer(url: &str) -> AppResult<js_sys::ArrayBuffer> {
    use wasm_bindgen::JsCast;
    let asset_err = |reason: String| AppError::Asset {
        url: url.to_string(),
        reason,
    };
    let resp = Request::get(url)
        .send()
        .await
        .map_err(|e| asset_err(e.to_string()))?;
    if !resp.ok() {
        return Err(asset_err(format!("HTTP {}", resp.status())));
    }
    let body = web_sys::Response::from(resp)
        .array_buffer()
        .map_err(|e| asset_err(AppError::js_text(&e)))?;
    wasm_bindgen_futures::JsFuture::from(body)
        .await
        .map_err(|e| asset_err(AppError::js_text(&e)))?
        .dyn_into()
        .map_err(|e| asset_err(AppError::js_text(&e)))
}

/// `rel` resolved against the page's URL (onnxruntime-web needs an absolute base).
pub fn absolute(rel: &str) -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .and_then(|base| web_sys::Url::new_with_base(rel, &base).ok())
        .map_or_else(|| rel.to_string(), |u| u.href())
}

/// A non-negative number given in the page address (`?name=N`): diagnosis and tests. What
/// reads one may only ever lower a limit with it, never raise one (a link is anyone's).
pub fn address_number(name: &str) -> Option<f64> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)?.parse().ok().filter(|n: &f64| *n >= 0.0)
}
