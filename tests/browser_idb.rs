//! IndexedDB through indexed_db_futures in a real headless Chromium.
#![cfg(target_arch = "wasm32")]

use fonte::platform::idb::{self, Db, STORES};
use serde::{Deserialize, Serialize};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Meta {
    format: u32,
    model: String,
    dim: usize,
}

#[wasm_bindgen_test]
async fn writes_a_record_and_reads_it_back_after_reopening() {
    let name = "fonte-test-idb-roundtrip";
    idb::delete(name).await.unwrap();

    let db = Db::open(name).await.unwrap();
    let meta = Meta {
        format: 1,
        model: "all-MiniLM-L6-v2-int8".into(),
        dim: 384,
    };
    db.put("meta", "library", &meta).await.unwrap();
    assert_eq!(db.get::<Meta>("meta", "absent").await.unwrap(), None);
    db.close();

    // A fresh connection sees the committed record and every store of the schema.
    let db = Db::open(name).await.unwrap();
    assert_eq!(db.get::<Meta>("meta", "library").await.unwrap(), Some(meta));
    for store in STORES {
        assert_eq!(
            db.get::<Meta>(store, "nothing-here").await.unwrap(),
            None,
            "{store}"
        );
    }
    db.close();
    idb::delete(name).await.unwrap();
}

#[wasm_bindgen_test]
async fn idb_store_passes_the_core_store_suite() {
    use fonte::platform::idb::IdbStore;
    let name = "fonte-test-idb-suite";
    idb::delete(name).await.unwrap();
    let store = IdbStore::open(name).await.unwrap();
    fonte_core::store::suite::run(&store).await.unwrap();
    store.close();
    idb::delete(name).await.unwrap();
}
