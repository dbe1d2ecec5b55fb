//! The ingestion progress the page shows: time left from the measured embedding rate.
#![cfg(target_arch = "wasm32")]

use fonte::state::Progress;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn time_left_is_the_chunks_left_at_the_measured_rate() {
    // 40 of 240 chunks embedded in 10 s: 4 chunks/s, 200 left.
    let p = Progress {
        total_bytes: 1000.0,
        done_bytes: 0.0,
        current: 100.0,
        started_ms: 1_000.0,
        chunks_embedded: 40,
        chunks_total: 240,
        embedding_since_ms: 2_000.0,
    };
    let left = p.eta_seconds(12_000.0).unwrap();
    assert!((left - 50.0).abs() < 1e-9, "{left}");

    // Before a pace of chunks (or once every read chunk is embedded): by bytes, as before.
    let early = Progress {
        chunks_embedded: 2,
        ..p
    };
    let by_bytes = early.eta_seconds(12_000.0).unwrap();
    assert!((by_bytes - 11.0 * 9.0).abs() < 1e-9, "{by_bytes}");
    assert_eq!(Progress::default().eta_seconds(12_000.0), None);
}
