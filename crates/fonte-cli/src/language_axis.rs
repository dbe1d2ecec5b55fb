//! `fonte language-axis`: the axis along which a model's passage vectors tell English from
//! Portuguese, measured on a library of one manual and its translation (the two centroids'
//! difference: what the two copies share in meaning cancels, what tells the languages apart
//! stays). Written to a model's manifest as `language_direction` (docs/QUALITY.md §4).

use std::path::{Path, PathBuf};

use fonte_core::search::lang::Lang;

use crate::index;

/// Arguments of `fonte language-axis`.
#[derive(clap::Args)]
pub struct LanguageAxisArgs {
    /// Corpus file from `fonte index` of a text and its translation, built with the model.
    corpus: PathBuf,
}

/// Prints `{"model", "passages": {"en", "pt"}, "distance", "language_direction"}` as JSON.
pub fn run(args: &LanguageAxisArgs) -> Result<(), String> {
    let corpus = index::load(&args.corpus)?;
    let dim = corpus.info().dim;
    let mut sums = [vec![0.0f64; dim], vec![0.0f64; dim]];
    let mut counts = [0usize; 2];
    for (chunk, v) in corpus.chunks().iter().zip(corpus.vectors()) {
        // A passage's own words only: code and formulas say nothing of a language.
        let side = match Lang::detect(&chunk.chunk.text) {
            Some(Lang::En) => 0,
            Some(Lang::Pt) => 1,
            None => continue,
        };
        counts[side] += 1;
        for (s, x) in sums[side].iter_mut().zip(v) {
            *s += f64::from(*x);
        }
    }
    if counts.contains(&0) {
        return Err(format!(
            "{}: {} English and {} Portuguese passages; the axis needs both",
            args.corpus.display(),
            counts[0],
            counts[1]
        ));
    }
    let diff: Vec<f64> = (0..dim)
        .map(|i| sums[0][i] / counts[0] as f64 - sums[1][i] / counts[1] as f64)
        .collect();
    let distance = diff.iter().map(|x| x * x).sum::<f64>().sqrt();
    let direction: Vec<f32> = diff.iter().map(|x| (x / distance) as f32).collect();
    let out = serde_json::json!({
        "model": corpus.info().model_id,
        "passages": { "en": counts[0], "pt": counts[1] },
        "distance": distance,
        "language_direction": direction,
    });
    println!("{out}");
    Ok(())
}

/// The `language_direction` of a file `run` wrote (or a bare JSON array).
pub fn read(path: &Path) -> Result<Vec<f32>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let axis = value.get("language_direction").unwrap_or(&value);
    serde_json::from_value(axis.clone()).map_err(|e| format!("{}: {e}", path.display()))
}
