//! The real models and tokenizers in onnxruntime-web (self-hosted, telemetry off) through
//! `ort` + `ort-web`, in a real headless Chromium, compared with the native vectors.
#![cfg(target_arch = "wasm32")]

mod common;

use fonte::models::Compute;
use fonte_core::embed::cosine;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const NATIVE: &str = include_str!("fixtures/minilm-native-vector.json");

#[wasm_bindgen_test]
async fn minilm_in_ort_web_embeds_like_native() {
    let mut embedder = common::embedder("all-minilm-l6-v2-int8", Compute::Wasm).await;
    let texts = [
        "The cat sits on the mat",
        "A cat is sitting on a mat",
        "Quarterly revenue grew",
    ];
    let v = embedder.embed_passages(&texts).await.unwrap();

    for x in &v {
        assert_eq!(x.len(), 384);
        let norm = x.iter().map(|a| a * a).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
    }
    let para = cosine(&v[0], &v[1]);
    let unrelated = cosine(&v[0], &v[2]);
    console_log!("ort-web MiniLM int8: paraphrase {para:.4}, unrelated {unrelated:.4}");
    assert!(
        para > unrelated + 0.4,
        "paraphrase {para} vs unrelated {unrelated}"
    );

    let native: serde_json::Value = serde_json::from_str(NATIVE).unwrap();
    assert_eq!(native["text"], texts[0]);
    let native: Vec<f32> = serde_json::from_value(native["vector"].clone()).unwrap();
    let agree = cosine(&native, &v[0]);
    console_log!("browser vs native cosine: {agree:.6}");
    assert!(
        agree >= 0.999,
        "browser and native vectors disagree: cosine {agree}"
    );
}

/// The bilingual model's default build (int8 weights, fp16 feed-forward output weights cast at
/// load) gives the native vectors in onnxruntime-web too.
#[wasm_bindgen_test]
async fn bilingual_e5_in_ort_web_embeds_like_native() {
    e5_embeds_like_native(
        "multilingual-e5-small-enpt-int8",
        include_str!("fixtures/e5-int8-native-vectors.json"),
    )
    .await;
}

/// The 4-bit build (kept for libraries built with it: INT4 weights run as MatMulNBits) too.
#[wasm_bindgen_test]
async fn bilingual_e5_4bit_in_ort_web_embeds_like_native() {
    e5_embeds_like_native(
        "multilingual-e5-small-enpt",
        include_str!("fixtures/e5-native-vectors.json"),
    )
    .await;
}

/// The converted model's vectors (Unigram tokenizer, e5 prefixes from its manifest) against the
/// native ones of the same build, recorded by fonte-core's native test.
async fn e5_embeds_like_native(folder: &str, fixture: &str) {
    let mut embedder = common::embedder(folder, Compute::Wasm).await;
    let native: serde_json::Value = serde_json::from_str(fixture).unwrap();
    for item in native["items"].as_array().unwrap() {
        let text = item["text"].as_str().unwrap();
        let v = if item["query"].as_bool().unwrap() {
            embedder.embed_query(text).await.unwrap()
        } else {
            embedder.embed_passages(&[text]).await.unwrap().remove(0)
        };
        let want: Vec<f32> = serde_json::from_value(item["vector"].clone()).unwrap();
        let agree = cosine(&want, &v);
        console_log!("{folder} browser vs native, {text:?}: cosine {agree:.6}");
        assert!(
            agree >= 0.999,
            "{text}: browser and native disagree, cosine {agree}"
        );
    }
}
