//! The embedding models the site serves (models/catalog.json and each model's manifest), and
//! which one a library uses.

use fonte_core::embed::ModelManifest;
use fonte_core::search::chunk::ChunkParams;
use fonte_core::search::corpus::BuildInfo;
use fonte_core::share::bundle::Accepted;
use serde::Deserialize;

#[cfg(target_arch = "wasm32")]
use crate::{platform::assets::fetch_bytes, AppResult};

/// The catalog: model folders under models/, and the one a new library starts with.
pub const CATALOG: &str = "models/catalog.json";

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Deserialize)]
struct Catalog {
    default: String,
    models: Vec<String>,
}

/// One installed model.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Its folder, relative to the page, ending in `/`.
    pub dir: String,
    /// Its manifest.
    pub manifest: ModelManifest,
}

impl Model {
    /// What a library built with this model records.
    pub fn info(&self) -> BuildInfo {
        BuildInfo {
            model_id: self.manifest.id.clone(),
            dim: self.manifest.dim,
            chunk_params: ChunkParams::default(),
        }
    }

    /// What a bundle's vectors must be built with to be used with this model.
    pub fn accepted(&self) -> Accepted {
        Accepted {
            model_id: self.manifest.id.clone(),
            dim: self.manifest.dim,
        }
    }

    /// Download size of its files, bytes.
    pub fn bytes(&self) -> u64 {
        self.manifest.files.values().map(|f| f.bytes).sum()
    }
}

#[cfg(target_arch = "wasm32")]
/// Every model in the catalog whose manifest loads (the default first), or an error if none.
pub async fn installed() -> AppResult<Vec<Model>> {
    let catalog: Catalog = serde_json::from_slice(&fetch_bytes(CATALOG).await?)
        .map_err(|e| fonte_core::Error::Manifest(format!("{CATALOG}: {e}")))?;
    let mut models = Vec::new();
    let mut first_error = None;
    for name in &catalog.models {
        let dir = format!("models/{name}/");
        let loaded = async {
            let bytes = fetch_bytes(&format!("{dir}manifest.json")).await?;
            AppResult::Ok(ModelManifest::from_json(&bytes)?)
        };
        match loaded.await {
            Ok(manifest) => models.push(Model { dir, manifest }),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    models.sort_by_key(|m| m.dir != format!("models/{}/", catalog.default));
    match (models.is_empty(), first_error) {
        (true, Some(e)) => Err(e),
        (true, None) => {
            Err(fonte_core::Error::Manifest(format!("{CATALOG} lists no model")).into())
        }
        _ => Ok(models),
    }
}

/// The model for a library: the one it was built with when that is installed (a library keeps
/// working as it is), else the default (the first).
pub fn for_library<'a>(models: &'a [Model], stored_model_id: Option<&str>) -> &'a Model {
    stored_model_id
        .and_then(|id| models.iter().find(|m| m.manifest.id == id))
        .unwrap_or(&models[0])
}

/// Where the embedding model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compute {
    /// The GPU, through onnxruntime-web's WebGPU execution provider.
    WebGpu,
    /// The CPU, through onnxruntime-web's WebAssembly backend (threads when isolated).
    Wasm,
}

/// Where the model ended up running, and why not on the GPU if that was tried and failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// The backend in use.
    pub compute: Compute,
    /// CPU threads onnxruntime-web may use, all runtimes together (one per embedding worker,
    /// more in a cross-origin isolated page).
    pub threads: u32,
    /// Texts embedded side by side (the embedding workers; 1 for the page's own session).
    pub workers: u32,
    /// WebGPU was chosen but failed with this error; the CPU is used instead.
    pub gpu_failed: Option<String>,
}
