//! `fonte index`: PDFs -> corpus file, with a per-file report and a progress bar; reading a
//! corpus file.

use std::path::{Path, PathBuf};

use fonte_core::search::chunk::ChunkParams;
use fonte_core::search::corpus::Corpus;
use indicatif::{ProgressBar, ProgressStyle};

use crate::versions::{DateArg, GroupArg};
use crate::{model, ModelArgs};

/// Reads, chunks and embeds the PDFs through the ingestion queue ([`crate::ingest`]); the
/// corpus with what the model's ranking needs (each passage's neighbours), so the file is saved
/// with them and nothing opening it has to compute them.
pub fn build(
    inputs: &[PathBuf],
    params: ChunkParams,
    model_args: &ModelArgs,
    groups: &[GroupArg],
    dates: &[DateArg],
) -> Result<Corpus, String> {
    let session = crate::ingest::ingest(inputs, params, model::load(model_args)?)?;
    crate::versions::apply(&session, groups, dates)?;
    let model = fonte_core::session::Services::model(&*session.services()).clone();
    let mut corpus = session.into_library().into_corpus();
    corpus.rank_for(&model);
    Ok(corpus)
}

/// Embeds passages with a progress bar (the evaluations' own texts).
pub fn embed_all(
    embedder: &mut fonte_core::embed::Embedder<fonte_core::embed::native::OrtEncoder>,
    texts: &[&str],
) -> Result<Vec<Vec<f32>>, String> {
    let bar = ProgressBar::new(texts.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("embedding {bar:40} {pos}/{len} chunks, {per_sec}, eta {eta}")
            .expect("valid template"),
    );
    let mut out = Vec::with_capacity(texts.len());
    // Slices of a few batches, so the bar moves and the length sort still has room to work.
    for part in texts.chunks(256) {
        out.extend(pollster::block_on(embedder.embed_passages(part)).map_err(|e| e.to_string())?);
        bar.inc(part.len() as u64);
    }
    bar.finish_and_clear();
    Ok(out)
}

/// `fonte index`.
pub fn run(
    inputs: &[PathBuf],
    output: &Path,
    params: ChunkParams,
    model_args: &ModelArgs,
    groups: &[GroupArg],
    dates: &[DateArg],
) -> Result<(), String> {
    let corpus = build(inputs, params, model_args, groups, dates)?;
    let bytes = corpus.to_bytes().map_err(|e| e.to_string())?;
    std::fs::write(output, &bytes).map_err(|e| format!("{}: {e}", output.display()))?;
    eprintln!(
        "wrote {} ({} documents, {} chunks, {} bytes)",
        output.display(),
        corpus.documents().len(),
        corpus.chunks().len(),
        bytes.len()
    );
    Ok(())
}

/// Reads a corpus file.
pub fn load(path: &Path) -> Result<Corpus, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Corpus::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}
