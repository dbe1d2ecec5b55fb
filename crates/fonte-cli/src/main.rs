//! `fonte`: Fonte's core on the command line.
//!
//! Today: `fonte embed [--model DIR] TEXT...` embeds texts with the same model files the browser
//! uses and prints their pairwise cosine similarities. Index, search and eval arrive with the
//! core's retrieval (see the issues).

use std::path::PathBuf;
use std::process::ExitCode;

use fonte_core::embed::native::OrtEncoder;
use fonte_core::embed::{cosine, Embedder, ModelManifest};

const USAGE: &str = "usage: fonte embed [--model DIR] [--threads N] TEXT...
       fonte pdftext [--password P] FILE.pdf
  embed: embeds each TEXT and prints the cosine similarity of every pair.
  pdftext: prints the report and each page's text, pages separated by form feeds.
  DIR defaults to models/all-minilm-l6-v2-int8 (installed by scripts/setup.sh);
  the ONNX Runtime library comes from ORT_DYLIB_PATH or models/native/.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fonte: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let Some((cmd, rest)) = args.split_first() else {
        return Err(USAGE.into());
    };
    match cmd.as_str() {
        "embed" => embed(rest),
        "pdftext" => pdftext(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command {other:?}\n{USAGE}")),
    }
}

fn embed(args: &[String]) -> Result<(), String> {
    let mut model = PathBuf::from("models/all-minilm-l6-v2-int8");
    let mut threads = 1;
    let mut texts = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--model" => model = it.next().ok_or("--model needs a folder")?.into(),
            "--threads" => {
                threads = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--threads needs a number")?
            }
            _ => texts.push(a.as_str()),
        }
    }
    if texts.is_empty() {
        return Err(USAGE.into());
    }
    let read = |name: &str| {
        let path = model.join(name);
        std::fs::read(&path).map_err(|e| format!("{}: {e} (run scripts/setup.sh)", path.display()))
    };
    let manifest = ModelManifest::from_json(&read("manifest.json")?).map_err(|e| e.to_string())?;
    let encoder =
        OrtEncoder::new(&manifest, &read("model.onnx")?, threads).map_err(|e| e.to_string())?;
    let mut embedder =
        Embedder::new(manifest, &read("tokenizer.json")?, encoder).map_err(|e| e.to_string())?;
    let vectors = pollster::block_on(embedder.embed_passages(&texts)).map_err(|e| e.to_string())?;
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

fn pdftext(args: &[String]) -> Result<(), String> {
    let mut password = None;
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--password" => password = Some(it.next().ok_or("--password needs a value")?.clone()),
            _ => file = Some(a.clone()),
        }
    }
    let file = file.ok_or(USAGE)?;
    let bytes = std::fs::read(&file).map_err(|e| format!("{file}: {e}"))?;
    let doc = fonte_core::pdf::extract(
        &bytes,
        password.as_deref().map(str::as_bytes),
        fonte_core::pdf::Limits::default(),
    );
    eprintln!(
        "{file}: {} pages, report {}",
        doc.page_count,
        serde_json::to_string(&doc.report).unwrap_or_default()
    );
    for (i, page) in doc.pages.iter().enumerate() {
        if i > 0 {
            print!("\u{c}");
        }
        println!("{}", page.text);
    }
    Ok(())
}
