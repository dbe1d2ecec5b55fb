//! Loading the embedding model from a model folder.

use fonte_core::embed::native::OrtEncoder;
use fonte_core::embed::{Embedder, ModelManifest};

use crate::ModelArgs;

/// The native embedder for `args.model`.
pub fn load(args: &ModelArgs) -> Result<Embedder<OrtEncoder>, String> {
    let read = |name: &str| {
        let path = args.model.join(name);
        std::fs::read(&path).map_err(|e| format!("{}: {e} (run scripts/setup.sh)", path.display()))
    };
    let manifest = ModelManifest::from_json(&read("manifest.json")?).map_err(|e| e.to_string())?;
    let encoder = OrtEncoder::new(&manifest, &read("model.onnx")?, args.threads)
        .map_err(|e| e.to_string())?;
    Ok(Embedder::new(manifest, &read("tokenizer.json")?, encoder)
        .map_err(|e| e.to_string())?
        .with_batch_size(args.batch))
}
