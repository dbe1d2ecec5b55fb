//! The browser's storage manager: ask for persistent storage and read the space used.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Asks the browser not to evict this site's data under storage pressure; whether it agreed.
pub async fn persist() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let Ok(promise) = window.navigator().storage().persist() else {
        return false;
    };
    JsFuture::from(promise)
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// (bytes used, bytes available) for this site, if the browser says.
pub async fn estimate() -> Option<(f64, f64)> {
    let window = web_sys::window()?;
    let promise = window.navigator().storage().estimate().ok()?;
    let value = JsFuture::from(promise).await.ok()?;
    let estimate: web_sys::StorageEstimate = value.unchecked_into();
    Some((estimate.get_usage()?, estimate.get_quota()?))
}
