//! The bundle reader compiled to wasm32, in a real headless Chromium: the format 1.0
//! compatibility fixture reads as natively, and each damaged copy is refused with the same
//! reason (the page imports with this code).
#![cfg(target_arch = "wasm32")]

use fonte_core::share::bundle::{read, BundleError};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const FIXTURE: &[u8] = include_bytes!("fixtures/bundles/format-1.0.fonte");

#[wasm_bindgen_test]
fn the_fixture_reads_and_damaged_copies_are_refused() {
    let b = read(FIXTURE).unwrap();
    assert_eq!(b.manifest.model_id, "all-MiniLM-L6-v2-int8");
    assert_eq!((b.documents.len(), b.manifest.chunks), (1, 3));
    assert!(b.documents[0].chunks[0].text.contains("crazy ones"));
    let mut flipped = FIXTURE.to_vec();
    let n = flipped.len();
    flipped[n - 20] ^= 1;
    assert!(matches!(
        read(&flipped).unwrap_err(),
        BundleError::Checksum { .. }
    ));
    assert!(matches!(
        read(&FIXTURE[..n / 2]).unwrap_err(),
        BundleError::Truncated { .. }
    ));
    let mut future = FIXTURE.to_vec();
    future[8] = 9;
    assert!(matches!(
        read(&future).unwrap_err(),
        BundleError::Version { major: 9, .. }
    ));
    assert_eq!(read(b"%PDF-1.7").unwrap_err(), BundleError::NotABundle);
}
