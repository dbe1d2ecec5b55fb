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
    use fonte_core::answer::translate::local::{DirectionFiles, LocalTranslator};
    use fonte_core::search::lang::Lang;
    struct Read {
        from: Lang,
        to: Lang,
        files: Vec<(Vec<u8>, String)>,
    }
    let mut read = Vec::new();
    for (name, from, to) in [
        ("translate-pten", Lang::Pt, Lang::En),
        ("translate-enpt", Lang::En, Lang::Pt),
    ] {
        let dir = models.join(name);
        let manifest_path = dir.join("manifest.json");
        let manifest: serde_json::Value = serde_json::from_slice(
            &std::fs::read(&manifest_path)
                .map_err(|e| format!("{}: {e}", manifest_path.display()))?,
        )
        .map_err(|e| format!("{}: {e}", manifest_path.display()))?;
        let files = manifest["files"]
            .as_object()
            .ok_or_else(|| format!("{}: no files", manifest_path.display()))?;
        let pick = |pred: &dyn Fn(&str) -> bool| -> Result<(Vec<u8>, String), String> {
            let (file, spec) = files
                .iter()
                .find(|(f, _)| pred(f))
                .ok_or_else(|| format!("{}: a file is missing", manifest_path.display()))?;
            let path = dir.join(file);
            let bytes = std::fs::read(&path)
                .map_err(|e| format!("{}: {e} (scripts/setup.sh installs it)", path.display()))?;
            Ok((bytes, spec["sha256"].as_str().unwrap_or("").to_string()))
        };
        let files = vec![
            pick(&|f| f.ends_with(".intgemm.alphas.bin"))?,
            pick(&|f| f.starts_with("lex."))?,
            pick(&|f| f == "tokenizer.json")?,
        ];
        read.push(Read { from, to, files });
    }
    let files: Vec<DirectionFiles<'_>> = read
        .iter()
        .map(|r| DirectionFiles {
            from: r.from,
            to: r.to,
            model: (&r.files[0].0, &r.files[0].1),
            shortlist: (&r.files[1].0, &r.files[1].1),
            tokenizer: (&r.files[2].0, &r.files[2].1),
        })
        .collect();
    LocalTranslator::load(&files).map_err(|e| e.to_string())
}
