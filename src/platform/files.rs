//! Files the user dropped or picked, read into the page.

use wasm_bindgen_futures::JsFuture;

use crate::AppError;

/// The bytes of `file`; what the browser said when it cannot read it (moved or deleted since
/// it was dropped, a permission gone).
pub async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| AppError::js_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
