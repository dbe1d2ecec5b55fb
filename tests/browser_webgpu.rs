//! The embedding model on onnxruntime-web's WebGPU execution provider, in headless Chromium
//! with its SwiftShader (software) WebGPU adapter (webdriver.json enables it): the same vector
//! as natively, and a clean fall back to WebAssembly where WebGPU is refused.
//!
//! SwiftShader proves the WebGPU path computes correctly, not that it is fast: the app only
//! picks WebGPU by itself for a hardware adapter (`choose_compute`). A separate test file,
//! because the first model loaded decides which onnxruntime-web build the page uses.
#![cfg(target_arch = "wasm32")]

mod common;

use fonte::models::Compute;
use fonte::platform::embed::choose_compute;
use fonte_core::embed::cosine;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const NATIVE: &str = include_str!("fixtures/minilm-native-vector.json");

#[wasm_bindgen_test]
async fn minilm_on_webgpu_embeds_like_native() {
    // A software adapter is not chosen automatically, but is used when asked for.
    assert_eq!(choose_compute(None).await, Compute::Wasm);
    assert_eq!(
        choose_compute(Some(Compute::WebGpu)).await,
        Compute::WebGpu,
        "headless Chromium offers no WebGPU adapter: check webdriver.json's SwiftShader flags"
    );

    let embedder = common::embedder("all-minilm-l6-v2-int8", Compute::WebGpu).await;
    let placement = embedder.encoder().placement().clone();
    console_log!("placement: {placement:?}");
    assert_eq!(placement.compute, Compute::WebGpu, "{placement:?}");
    assert_eq!(placement.gpu_failed, None);
    let mut embedder = embedder.with_batch_size(16);
    let texts = ["The cat sits on the mat", "Quarterly revenue grew"];
    let v = embedder.embed_passages(&texts).await.unwrap();
    let native: serde_json::Value = serde_json::from_str(NATIVE).unwrap();
    assert_eq!(native["text"], texts[0]);
    let native: Vec<f32> = serde_json::from_value(native["vector"].clone()).unwrap();
    let agree = cosine(&native, &v[0]);
    console_log!("WebGPU vs native cosine: {agree:.6}");
    assert!(
        agree >= 0.999,
        "WebGPU and native vectors disagree: cosine {agree}"
    );
    assert!(cosine(&v[0], &v[1]) < 0.5);
}
