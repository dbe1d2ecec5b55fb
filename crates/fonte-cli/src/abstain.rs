//! `fonte abstain-eval`: how often abstention before the LLM (`fonte_core::answer::abstain`) holds back
//! on questions a corpus answers and on questions it does not, per language, with the
//! threshold calibrated on the corpus from the core's probes (docs/QUALITY.md, "Answers").
//!
//! The answerable questions are scored against the corpus with each question's own heading
//! stripped (as `fonte eval` does): in the Debian FAQ every question is a heading, and a
//! question that finds itself would make abstention look better than it is.

use std::path::PathBuf;

use fonte_core::answer::abstain::{evidence, Evidence, Threshold, PROBES};
use fonte_core::search::corpus::Corpus;
use serde::Deserialize;

use crate::eval::{read_qa, stripped_corpus, Qa};
use crate::{index, model, ModelArgs};

/// Arguments of `fonte abstain-eval`.
#[derive(clap::Args)]
pub struct AbstainArgs {
    /// Corpus file from `fonte index`.
    corpus: PathBuf,
    /// Questions the corpus answers (`q_en`, `q_pt`, `gold_en`, `gold_pt` per line).
    answerable: PathBuf,
    /// Questions it does not answer (`q_en`, `q_pt`, `kind` per line).
    unanswerable: PathBuf,
    /// List every question with its best score and the decision.
    #[arg(long)]
    verbose: bool,
    #[command(flatten)]
    model: ModelArgs,
}

#[derive(Deserialize)]
struct Absent {
    kind: String,
    q_en: String,
    q_pt: String,
}

/// A score compared with the core's, named, as a "best score" for the same threshold rule.
type Variant = (&'static str, fn(&Evidence) -> Evidence);

fn share(flags: &[bool]) -> f32 {
    flags.iter().filter(|f| **f).count() as f32 / flags.len().max(1) as f32
}

/// `fonte abstain-eval`.
pub fn run(args: &AbstainArgs) -> Result<(), String> {
    let corpus = index::load(&args.corpus)?;
    let answerable: Vec<Qa> = read_qa(&args.answerable)?;
    let absent: Vec<Absent> = read_qa(&args.unanswerable)?;
    let mut embedder = model::load_for(&args.model, &corpus)?;
    let (stripped, n) = stripped_corpus(&corpus, &answerable, &mut embedder)?;
    eprintln!("stripped question headings from {n} chunks");
    let mut score = |c: &Corpus, q: &str| -> Result<Evidence, String> {
        let v = pollster::block_on(embedder.embed_query(q)).map_err(|e| e.to_string())?;
        evidence(&v, c.vectors()).ok_or_else(|| "empty corpus".to_string())
    };
    let probes: Vec<Evidence> = PROBES
        .iter()
        .map(|p| score(&stripped, p))
        .collect::<Result<_, _>>()?;
    // The core's rule (the best cosine), and two it is compared with, each as a "best score"
    // under the same probes and quantile: best minus the best 1%, and best minus the median.
    let variants: [Variant; 3] = [
        ("top", |e| *e),
        ("top-crowd", |e| Evidence {
            top: e.top - e.crowd,
            ..*e
        }),
        ("top-median", |e| Evidence {
            top: e.top - e.median,
            ..*e
        }),
    ];
    let thresholds: Vec<Threshold> = variants
        .iter()
        .map(|(_, f)| {
            let mapped: Vec<Evidence> = probes.iter().map(f).collect();
            Threshold::calibrate(&mapped).expect("probes")
        })
        .collect();
    println!(
        "model {}, chunks {}, {} probes, thresholds: top {:.4}, top-crowd {:.4}, top-median {:.4}; {} answerable, {} unanswerable questions",
        corpus.info().model_id,
        stripped.chunks().len(),
        PROBES.len(),
        thresholds[0].top,
        thresholds[1].top,
        thresholds[2].top,
        answerable.len(),
        absent.len()
    );
    println!(
        "{:4} {:30} {:>7} {:>9} {:>10}",
        "lang", "questions (share abstained)", "top", "top-crowd", "top-median"
    );
    for lang in ["en", "pt"] {
        let pick = |en: &str, pt: &str| {
            if lang == "en" {
                en.to_string()
            } else {
                pt.to_string()
            }
        };
        let mut rows: Vec<(String, Vec<String>)> = vec![(
            "answerable (false abstention)".into(),
            answerable.iter().map(|q| pick(&q.q_en, &q.q_pt)).collect(),
        )];
        for kind in ["near", "far"] {
            rows.push((
                format!("out of corpus, {kind}"),
                absent
                    .iter()
                    .filter(|q| q.kind == kind)
                    .map(|q| pick(&q.q_en, &q.q_pt))
                    .collect(),
            ));
        }
        for (name, questions) in rows {
            let found: Vec<Evidence> = questions
                .iter()
                .map(|q| score(&stripped, q))
                .collect::<Result<_, _>>()?;
            if args.verbose {
                for (q, e) in questions.iter().zip(&found) {
                    let verdict = if thresholds[0].abstains(e) {
                        "abstain"
                    } else {
                        "ask"
                    };
                    eprintln!("  {lang} {verdict:7} top {:.4}  {q}", e.top);
                }
            }
            let rates: Vec<f32> = variants
                .iter()
                .zip(&thresholds)
                .map(|((_, f), t)| {
                    share(&found.iter().map(|e| t.abstains(&f(e))).collect::<Vec<_>>())
                })
                .collect();
            println!(
                "{lang:4} {name:30} {:>7.3} {:>9.3} {:>10.3}",
                rates[0], rates[1], rates[2]
            );
        }
    }
    Ok(())
}
