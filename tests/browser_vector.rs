//! The vector scan compiled to wasm32 with SIMD (its own int8 dot product there) agrees with
//! the exact f32 scan, in a real headless Chromium.
#![cfg(target_arch = "wasm32")]

use fonte_core::search::vector::{random_unit_vectors, recall_at, VectorIndex};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn int8_scan_in_wasm_matches_exact_search() {
    let data = random_unit_vectors(6_000, 384, 5);
    let queries = random_unit_vectors(30, 384, 6);
    let exact = VectorIndex::build_exact(384, data.clone()).unwrap();
    let int8 = VectorIndex::build_int8(384, data).unwrap();
    let recall = recall_at(&exact, &int8, &queries, 10);
    console_log!("wasm int8 scan recall@10 {recall:.3}");
    assert!(recall >= 0.95, "recall@10 {recall}");
    for q in &queries {
        let (a, b) = (exact.search(q, 1, &|_| true), int8.search(q, 1, &|_| true));
        assert!((a[0].1 - b[0].1).abs() < 0.02, "{a:?} vs {b:?}");
    }
}
