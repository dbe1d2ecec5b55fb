//! `fonte`: Fonte's core on the command line, with the same model files the browser uses.
//!
//! - `fonte index <folder> -o <file>`: PDFs -> text -> chunks -> vectors -> a corpus file;
//! - `fonte search <file> "<question>"`: ranked passages with document, page and score;
//! - `fonte eval <file> <qa.jsonl>`: retrieval metrics (docs/QUALITY.md);
//! - `fonte embed TEXT...`: cosine similarities between texts.

mod abstain;
mod ask;
mod bundle;
mod eval;
mod hnsw;
mod http;
mod index;
mod ingest;
mod language_axis;
mod model;
mod versions;
mod words;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use fonte_core::embed::cosine;
use fonte_core::search::chunk::ChunkParams;
use fonte_core::search::retrieve::Mode;

#[derive(Parser)]
#[command(name = "fonte", version, about = "Fonte: ask your PDFs, natively")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Clone)]
pub struct ModelArgs {
    /// Model folder (manifest.json, model.onnx, tokenizer.json).
    #[arg(long, default_value = "models/all-minilm-l6-v2-int8")]
    pub model: PathBuf,
    /// ONNX Runtime intra-op threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Texts per inference batch. 1, as the page embeds: the 8-bit model quantizes its
    /// activations over the whole batch, so batch mates would move a vector (cosine ~0.997), and
    /// natively one text per call is no slower (docs/PERFORMANCE.md).
    #[arg(long, default_value_t = 1)]
    pub batch: usize,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ModeArg {
    Hybrid,
    Lexical,
    Dense,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Hybrid => Mode::Hybrid,
            ModeArg::Lexical => Mode::Lexical,
            ModeArg::Dense => Mode::Dense,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Index every PDF in a folder into a corpus file.
    Index {
        /// Folder of PDFs (searched recursively), or PDF files.
        inputs: Vec<PathBuf>,
        /// Corpus file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// Chunk target size in model tokens.
        #[arg(long, default_value_t = ChunkParams::default().target_tokens)]
        target: usize,
        /// Chunk overlap in model tokens.
        #[arg(long, default_value_t = ChunkParams::default().overlap_tokens)]
        overlap: usize,
        /// Versions of one text, `NAME=FILE,FILE,…` (file names as indexed): the newest
        /// (by publication date) supersedes the others; repeatable.
        #[arg(long)]
        group: Vec<versions::GroupArg>,
        /// A document's publication date, `FILE=YYYY-MM-DD` (or YYYY-MM, YYYY), instead of
        /// the one read from the file; repeatable.
        #[arg(long)]
        date: Vec<versions::DateArg>,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Search a corpus file.
    Search {
        /// Corpus file from `fonte index`.
        corpus: PathBuf,
        /// The question.
        question: String,
        /// Results to show.
        #[arg(short, default_value_t = 10)]
        k: usize,
        /// Ranking.
        #[arg(long, value_enum, default_value_t = ModeArg::Hybrid)]
        mode: ModeArg,
        /// Only these documents (file names), repeatable.
        #[arg(long)]
        doc: Vec<String>,
        /// Search superseded versions too (by default only each group's current one).
        #[arg(long)]
        all_versions: bool,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Retrieval metrics on a question set.
    Eval(eval::EvalArgs),
    /// The axis along which the model tells English from Portuguese, from a corpus of a text
    /// and its translation (JSON for a model manifest's `language_direction`).
    LanguageAxis(language_axis::LanguageAxisArgs),
    /// Ask a question: an answer from the evidence only, with citations, from an LLM endpoint
    /// (or the best passages without one).
    Ask(ask::AskArgs),
    /// Abstention before the LLM on answerable and out-of-corpus questions.
    AbstainEval(abstain::AbstainArgs),
    /// Make a shareable bundle of PDFs (`bundle <PDFs> -o x.fonte`), or check one
    /// (`bundle check x.fonte`).
    Bundle(bundle::BundleArgs),
    /// Recall@10 of the approximate vector indexes (HNSW, int8 scan) against exact search, on
    /// seeded random vectors or a corpus's vectors, with build and query times from one run.
    HnswRecall(hnsw::HnswArgs),
    /// Embedding throughput on a JSON array of texts (scripts/bench_browser.mjs writes the
    /// chunks it embeds in the browser): prints one JSON line with chunks per second.
    EmbedBench {
        /// JSON file: an array of strings.
        texts: PathBuf,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Embed texts and print their pairwise cosine similarities.
    Embed {
        /// Texts.
        texts: Vec<String>,
        #[command(flatten)]
        model: ModelArgs,
    },
}

fn main() -> ExitCode {
    // SAFETY: called first, before any other thread exists; SIG_DFL is a valid disposition.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fonte: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Index {
            inputs,
            output,
            target,
            overlap,
            group,
            date,
            model,
        } => {
            let params = ChunkParams {
                target_tokens: target,
                overlap_tokens: overlap,
            };
            index::run(&inputs, &output, params, &model, &group, &date)
        }
        Command::Search {
            corpus,
            question,
            k,
            mode,
            doc,
            all_versions,
            model,
        } => search(
            &corpus,
            &question,
            k,
            mode.into(),
            &doc,
            all_versions,
            &model,
        ),
        Command::Eval(args) => eval::run(&args),
        Command::AbstainEval(args) => abstain::run(&args),
        Command::Bundle(args) => bundle::run(&args),
        Command::Ask(args) => ask::run(&args),
        Command::LanguageAxis(args) => language_axis::run(&args),
        Command::Embed { texts, model } => embed(&texts, &model),
        Command::EmbedBench { texts, model } => embed_bench(&texts, &model),
        Command::HnswRecall(args) => hnsw::run(&args),
    }
}

fn search(
    path: &Path,
    question: &str,
    k: usize,
    mode: Mode,
    docs: &[String],
    all_versions: bool,
    model: &ModelArgs,
) -> Result<(), String> {
    let mut corpus = index::load(path)?;
    let mut embedder = model::load(model)?;
    corpus.rank_for(embedder.manifest());
    if embedder.manifest().id != corpus.info().model_id {
        return Err(format!(
            "{} was built with {}, not {}: use --model",
            path.display(),
            corpus.info().model_id,
            embedder.manifest().id
        ));
    }
    let scope: Vec<u32> = (0..corpus.documents().len() as u32)
        .filter(|&d| {
            docs.iter()
                .any(|n| corpus.documents()[d as usize].name == *n)
        })
        .collect();
    let scope = (!docs.is_empty()).then_some(scope.as_slice());
    let qv = pollster::block_on(embedder.embed_query(question)).map_err(|e| e.to_string())?;
    let notes = corpus.version_notes();
    for (rank, hit) in corpus
        .search(
            &fonte_core::search::retrieve::Search::new(question, Some(&qv))
                .mode(mode)
                .depth(k.max(fonte_core::search::retrieve::DEPTH))
                .scope(scope)
                .all_versions(all_versions),
        )
        .iter()
        .take(k)
        .enumerate()
    {
        let rec = &corpus.chunks()[hit.chunk as usize];
        let doc = &corpus.documents()[rec.doc as usize];
        let preview: String = rec
            .chunk
            .text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .take(160)
            .collect();
        println!(
            "{:>2}. {:.4}  {} p.{}  [{}..{}]  {preview}",
            rank + 1,
            hit.score,
            doc.name,
            rec.chunk.page,
            rec.chunk.char_start,
            rec.chunk.char_end
        );
        if let Some(note) = &notes[rec.doc as usize] {
            println!("    {}", versions::note(note));
        }
    }
    Ok(())
}

fn embed(texts: &[String], model: &ModelArgs) -> Result<(), String> {
    let mut embedder = model::load(model)?;
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let vectors = pollster::block_on(embedder.embed_passages(&refs)).map_err(|e| e.to_string())?;
    println!(
        "model {} (dim {})",
        embedder.manifest().id,
        embedder.manifest().dim
    );
    for (i, a) in texts.iter().enumerate() {
        for (j, b) in texts.iter().enumerate().skip(i + 1) {
            println!("{:.4}  {a:?} ~ {b:?}", cosine(&vectors[i], &vectors[j]));
        }
    }
    Ok(())
}

fn embed_bench(path: &Path, args: &ModelArgs) -> Result<(), String> {
    let texts: Vec<String> = serde_json::from_slice(
        &std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?,
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut embedder = model::load(args)?;
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    // One warm-up run, as in the browser benchmark.
    pollster::block_on(embedder.embed_passages(&refs[..refs.len().min(4)]))
        .map_err(|e| e.to_string())?;
    let t = std::time::Instant::now();
    pollster::block_on(embedder.embed_passages(&refs)).map_err(|e| e.to_string())?;
    let s = t.elapsed().as_secs_f64();
    println!(
        "{}",
        serde_json::json!({
            "chunks": texts.len(),
            "threads": args.threads,
            "batch": args.batch,
            "seconds": s,
            "chunks_per_s": texts.len() as f64 / s,
        })
    );
    Ok(())
}
