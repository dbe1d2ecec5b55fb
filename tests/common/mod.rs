//! Shared by the browser tests that load a model: where the assets are served, and a model's
//! embedder on onnxruntime-web.
//!
//! The test runner's own server cannot serve onnxruntime-web's files, so scripts/test.sh serves
//! the repository on loopback with CORS and passes its URL as FONTE_TEST_ASSETS at build time.

use fonte::models::Compute;
use fonte::platform::assets::fetch_bytes;
use fonte::platform::embed::OrtWebEncoder;
use fonte_core::embed::{Embedder, ModelManifest};

pub const ASSETS: &str = match option_env!("FONTE_TEST_ASSETS") {
    Some(url) => url,
    None => "http://127.0.0.1:8790/",
};

/// The embedder for `models/<folder>` on `compute` (checked against its manifest).
pub async fn embedder(folder: &str, compute: Compute) -> Embedder<OrtWebEncoder> {
    let dir = format!("{ASSETS}models/{folder}/");
    let manifest =
        ModelManifest::from_json(&fetch_bytes(&format!("{dir}manifest.json")).await.unwrap())
            .unwrap();
    let model = fetch_bytes(&format!("{dir}model.onnx")).await.unwrap();
    let tokenizer = fetch_bytes(&format!("{dir}tokenizer.json")).await.unwrap();
    let encoder = OrtWebEncoder::load(&format!("{ASSETS}public/ort/"), &manifest, &model, compute)
        .await
        .unwrap();
    Embedder::new(manifest, &tokenizer, encoder).unwrap()
}
