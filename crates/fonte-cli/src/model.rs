//! Loading the embedding model from a model folder.

use std::path::Path;

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

/// The translation models on this machine (`models/translate-enpt`, `models/translate-pten`,
/// installed by models/install.py), each file checked against its manifest as it loads.
pub fn translator(
    models: &Path,
) -> Result<fonte_core::answer::translate::local::LocalTranslator, String> {
    use fonte_core::answer::translate::local::{
        DirectionFiles, LocalTranslator, Manifest, FOLDERS,
    };
    let mut read = Vec::new();
    for (name, from, to) in FOLDERS {
        let dir = models.join(name);
        let manifest_path = dir.join("manifest.json");
        let manifest = std::fs::read(&manifest_path)
            .map_err(|e| format!("{}: {e}", manifest_path.display()))
            .and_then(|b| {
                Manifest::parse(&b).map_err(|e| format!("{}: {e}", manifest_path.display()))
            })?;
        let mut files = Vec::new();
        for (file, sha) in manifest.files().map_err(|e| e.to_string())? {
            let path = dir.join(file);
            let bytes = std::fs::read(&path)
                .map_err(|e| format!("{}: {e} (scripts/setup.sh installs it)", path.display()))?;
            files.push((bytes, sha.to_string()));
        }
        read.push((from, to, files));
    }
    let files: Vec<DirectionFiles<'_>> = read
        .iter()
        .map(|(from, to, f)| DirectionFiles {
            from: *from,
            to: *to,
            model: (&f[0].0, &f[0].1),
            shortlist: (&f[1].0, &f[1].1),
            tokenizer: (&f[2].0, &f[2].1),
        })
        .collect();
    LocalTranslator::load(&files).map_err(|e| e.to_string())
}
