//! `fonte bundle <PDFs> -o corpus.fonte --title "…"`: a shareable bundle (docs/BUNDLE.md), and
//! `fonte bundle check <file>`, which validates a bundle exactly as the browser does (the same
//! `fonte_core::share::bundle::read`) and prints a summary, or the reason it is refused.

use std::path::{Path, PathBuf};

use fonte_core::search::chunk::ChunkParams;
use fonte_core::share::bundle::{read, Meta};

use crate::{model, ModelArgs};

/// Arguments of `fonte bundle`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BundleArgs {
    #[command(subcommand)]
    check: Option<Check>,
    /// PDF files or folders (searched recursively).
    inputs: Vec<PathBuf>,
    /// The bundle to write.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Its title.
    #[arg(long, default_value = "")]
    title: String,
    /// Its description.
    #[arg(long, default_value = "")]
    description: String,
    /// Leave the PDFs out (pages then show as their text).
    #[arg(long)]
    no_pdfs: bool,
    /// Target chunk size in tokens.
    #[arg(long, default_value_t = ChunkParams::default().target_tokens)]
    chunk_tokens: usize,
    /// Overlap between consecutive chunks in tokens.
    #[arg(long, default_value_t = ChunkParams::default().overlap_tokens)]
    overlap: usize,
    /// Versions of one text, `NAME=FILE,FILE,…`: the newest supersedes the others in every
    /// library that imports the bundle; repeatable.
    #[arg(long)]
    group: Vec<crate::versions::GroupArg>,
    /// A document's publication date, `FILE=YYYY-MM-DD` (or YYYY-MM, YYYY); repeatable.
    #[arg(long)]
    date: Vec<crate::versions::DateArg>,
    #[command(flatten)]
    model: ModelArgs,
}

#[derive(clap::Subcommand)]
enum Check {
    /// Validate a bundle as the browser does: a summary, or why it is refused (exit 1).
    Check {
        /// The bundle.
        file: PathBuf,
    },
}

/// Now, as RFC 3339 (UTC), from the system clock.
fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

fn check(file: &Path) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let b = read(&bytes).map_err(|e| format!("{}: refused: {e}", file.display()))?;
    let m = &b.manifest;
    println!("{}: a valid Fonte bundle", file.display());
    println!("title: {}", m.title);
    if !m.description.is_empty() {
        println!("description: {}", m.description);
    }
    println!("created: {}", m.created);
    println!(
        "model: {} (dim {}), chunks of {} tokens",
        m.model_id, m.dim, m.chunk_params.target_tokens
    );
    println!(
        "{} documents, {} chunks, PDFs {}, {} bytes",
        m.documents.len(),
        m.chunks,
        if m.pdfs { "included" } else { "not included" },
        bytes.len()
    );
    for d in &m.documents {
        let date = d
            .about
            .published
            .map(|p| format!(", published {}", crate::versions::date(p.date)))
            .unwrap_or_default();
        let group = d
            .about
            .group
            .as_ref()
            .map(|g| format!(", a version of {g:?}"))
            .unwrap_or_default();
        println!(
            "  {} ({} pages, {} chunks, {} bytes{date}{group})",
            d.name, d.pages, d.chunks, d.size
        );
    }
    Ok(())
}

/// `fonte bundle`.
pub fn run(args: &BundleArgs) -> Result<(), String> {
    if let Some(Check::Check { file }) = &args.check {
        return check(file);
    }
    let output = args
        .output
        .as_ref()
        .ok_or("give the bundle to write with -o")?;
    let params = ChunkParams {
        target_tokens: args.chunk_tokens,
        overlap_tokens: args.overlap,
    };
    // The same queue as `fonte index` and the page, then the page's own export.
    let session = crate::ingest::ingest(&args.inputs, params, model::load(&args.model)?)?;
    crate::versions::apply(&session, &args.group, &args.date)?;
    let meta = Meta {
        title: args.title.clone(),
        description: args.description.clone(),
        created: now(),
        pdfs: !args.no_pdfs,
    };
    let bytes = pollster::block_on(session.export(None, &meta)).map_err(|e| e.to_string())?;
    std::fs::write(output, &bytes).map_err(|e| format!("{}: {e}", output.display()))?;
    let corpus = session.library().corpus();
    eprintln!(
        "wrote {} ({} documents, {} chunks, {} bytes{})",
        output.display(),
        corpus.documents().len(),
        corpus.chunks().len(),
        bytes.len(),
        if args.no_pdfs {
            "; without the PDFs"
        } else {
            ""
        }
    );
    Ok(())
}
