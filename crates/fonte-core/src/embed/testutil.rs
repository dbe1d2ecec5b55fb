//! Shared helpers for tests that use the installed MiniLM model.

use std::path::PathBuf;

use super::ModelManifest;

/// `models/all-minilm-l6-v2-int8`, installed by scripts/setup.sh.
pub fn minilm_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/all-minilm-l6-v2-int8")
}

pub fn minilm_manifest() -> ModelManifest {
    let bytes = std::fs::read(minilm_dir().join("manifest.json")).unwrap();
    ModelManifest::from_json(&bytes).unwrap()
}

/// `models/multilingual-e5-small-enpt`, converted by scripts/setup.sh.
pub fn e5_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/multilingual-e5-small-enpt")
}

pub fn e5_manifest() -> ModelManifest {
    let bytes = std::fs::read(e5_dir().join("manifest.json")).unwrap();
    ModelManifest::from_json(&bytes).unwrap()
}
