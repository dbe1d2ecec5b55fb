//! `fonte index`: PDFs -> corpus file, with a per-file report and a progress bar.

use std::path::{Path, PathBuf};

use fonte_core::chunk::ChunkParams;
use fonte_core::corpus::{BuildInfo, ChunkRecord, Corpus};
use fonte_core::ingest::{prepare, Prepared};
use indicatif::{ProgressBar, ProgressStyle};

use crate::{model, ModelArgs};

/// PDFs under `inputs` (folders searched recursively; `.pdf` in any letter case), sorted.
pub fn collect_pdfs(inputs: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            if let Ok(entries) = std::fs::read_dir(p) {
                for e in entries.flatten() {
                    walk(&e.path(), out);
                }
            }
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")) {
            out.push(p.to_path_buf());
        }
    }
    let mut out = Vec::new();
    for i in inputs {
        walk(i, &mut out);
    }
    out.sort();
    out
}

/// Reads and chunks the PDFs under `inputs` with `embedder`'s tokenizer, reporting each file
/// on stderr: the documents kept (rejected files and duplicates left out) with their bytes.
pub fn read_all(
    inputs: &[PathBuf],
    params: ChunkParams,
    embedder: &fonte_core::embed::Embedder<fonte_core::embed::native::OrtEncoder>,
) -> Result<Vec<(Prepared, Vec<u8>)>, String> {
    let files = collect_pdfs(inputs);
    if files.is_empty() {
        return Err("no PDF files found".into());
    }
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for path in &files {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{name}: rejected: cannot read ({e})");
                continue;
            }
        };
        let tokenizer = embedder.tokenizer().clone();
        let count = |t: &str| tokenizer.content_tokens(t);
        let doc = prepare(&name, &bytes, None, params, &count);
        if !seen.insert(doc.meta.id.clone()) {
            eprintln!("{name}: duplicate of a file already indexed, skipped");
            continue;
        }
        let status = crate::words::report(&doc.meta.report);
        if doc.is_rejected() {
            eprintln!("{name}: {status}");
            continue;
        }
        eprintln!(
            "{name}: {status}, {} pages, {} chunks",
            doc.meta.pages,
            doc.chunks.len()
        );
        out.push((doc, bytes));
    }
    Ok(out)
}

/// Extracts, chunks and embeds the PDFs; reports each file on stderr.
pub fn build(
    inputs: &[PathBuf],
    params: ChunkParams,
    model_args: &ModelArgs,
) -> Result<Corpus, String> {
    let mut embedder = model::load(model_args)?;
    let mut documents = Vec::new();
    let mut chunks = Vec::new();
    for (doc, _) in read_all(inputs, params, &embedder)? {
        let n = documents.len() as u32;
        chunks.extend(
            doc.chunks
                .into_iter()
                .map(|chunk| ChunkRecord { doc: n, chunk }),
        );
        documents.push(doc.meta);
    }
    let vectors = embed_all(
        &mut embedder,
        &chunks
            .iter()
            .map(|c| c.chunk.text.as_str())
            .collect::<Vec<_>>(),
    )?;
    let info = BuildInfo {
        model_id: embedder.manifest().id.clone(),
        dim: embedder.manifest().dim,
        chunk_params: params,
    };
    let mut corpus = Corpus::build(info, documents, chunks, vectors).map_err(|e| e.to_string())?;
    // With what the model's ranking needs (each passage's neighbours), so the file is saved
    // with them and nothing opening it has to compute them.
    corpus.rank_for(embedder.manifest());
    Ok(corpus)
}

/// Embeds passages with a progress bar.
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
) -> Result<(), String> {
    let corpus = build(inputs, params, model_args)?;
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
