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
        .map_err(|e| format!("{e} (re-run scripts/setup.sh to reinstall the model files)"))?;
    Ok(Embedder::new(manifest, &read("tokenizer.json")?, encoder)
        .map_err(|e| e.to_string())?
        .with_batch_size(args.batch))
}

/// [`load`], refused unless the model is the one `corpus` was built with (vectors of two
/// models are not comparable).
pub fn load_for(
    args: &ModelArgs,
    corpus: &fonte_core::search::corpus::Corpus,
) -> Result<Embedder<OrtEncoder>, String> {
    let embedder = load(args)?;
    if embedder.manifest().id != corpus.info().model_id {
        return Err(format!(
            "corpus built with {}, model is {}",
            corpus.info().model_id,
            embedder.manifest().id
        ));
    }
    Ok(embedder)
}
