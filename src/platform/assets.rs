//! Fetching the app's own static files (model, tokenizer, manifest) as bytes, and reading
//! the page address.

use gloo::net::http::Request;

use crate::{AppError, AppResult};

fn asset_err(url: &str, reason: String) -> AppError {
    AppError::Asset {
        url: url.to_string(),
        reason,
    }
}

/// GETs `url` (same origin as the app): the response, once its status says OK.
async fn get(url: &str) -> AppResult<gloo::net::http::Response> {
    let resp = Request::get(url)
        .send()
        .await
        .map_err(|e| asset_err(url, e.to_string()))?;
    if !resp.ok() {
        return Err(asset_err(url, format!("HTTP {}", resp.status())));
    }
    Ok(resp)
}

/// GETs `url` (same origin as the app) and returns its body.
pub async fn fetch_bytes(url: &str) -> AppResult<Vec<u8>> {
    get(url)
        .await?
        .binary()
        .await
        .map_err(|e| asset_err(url, e.to_string()))
}

/// GETs `url` (same origin as the app) and returns its body as a JavaScript buffer, never
/// copied into the page's wasm memory (which does not shrink): for large files handed on to a
/// worker.
pub async fn fetch_buffer(url: &str) -> AppResult<js_sys::ArrayBuffer> {
    use wasm_bindgen::JsCast;
    let failed = |e: wasm_bindgen::JsValue| asset_err(url, AppError::js_text(&e));
    let body = web_sys::Response::from(get(url).await?)
        .array_buffer()
        .map_err(failed)?;
    wasm_bindgen_futures::JsFuture::from(body)
        .await
        .map_err(failed)?
        .dyn_into()
        .map_err(failed)
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
