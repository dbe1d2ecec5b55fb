//! Shared helpers for tests that use the installed models.

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

/// A build of the bilingual model, converted by scripts/setup.sh: `multilingual-e5-small-enpt-int8`
/// (the default) or `multilingual-e5-small-enpt` (4-bit, kept for libraries built with it).
pub fn e5_dir(folder: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../models")
        .join(folder)
}

pub fn e5_manifest(folder: &str) -> ModelManifest {
    let bytes = std::fs::read(e5_dir(folder).join("manifest.json")).unwrap();
    ModelManifest::from_json(&bytes).unwrap()
}
