//! `fonte eval`: retrieval metrics of a corpus on a question set (the Debian FAQ QA format:
//! `q_en`, `q_pt`, `gold_en`, `gold_pt`), per language pair and ranking, as indexed and with
//! each question's own heading line stripped from the index (the questions are headings in the
//! FAQ, so a question would otherwise find itself).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use fonte_core::corpus::Corpus;
use fonte_core::eval::{metrics, GoldMatcher, QuestionOutcome, RetrievalMetrics};
use fonte_core::retrieve::{Mode, Search};
use fonte_core::text::words;
use serde::Deserialize;

use crate::{index, model, ModelArgs};

/// Arguments of `fonte eval`.
#[derive(clap::Args)]
pub struct EvalArgs {
    /// Corpus file from `fonte index`.
    corpus: PathBuf,
    /// Question set, one JSON object per line.
    qa: PathBuf,
    /// Evidence budget in characters.
    #[arg(long, default_value_t = 4000)]
    budget: usize,
    /// Which index variants to score.
    #[arg(long, value_enum, default_value_t = Variant::Both)]
    variant: Variant,
    /// RRF constant for hybrid ranking.
    #[arg(long, default_value_t = fonte_core::retrieve::Fusion::default().k)]
    rrf_k: f32,
    /// Weight of the dense ranking in hybrid fusion (BM25's is 1) [default: the model
    /// manifest's `dense_weight`].
    #[arg(long)]
    dense_weight: Option<f32>,
    /// Answer mode: questions the corpus does not answer (`q_en`, `q_pt` per line). Reports
    /// abstention before the LLM on both sets and, with `--endpoint`, what the model answers.
    #[arg(long)]
    answers: Option<PathBuf>,
    /// Answer mode: questions per set and language sent to the endpoint.
    #[arg(long, default_value_t = 20)]
    limit: usize,
    #[command(flatten)]
    endpoint: crate::ask::EndpointArgs,
    #[command(flatten)]
    model: ModelArgs,
}

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum Variant {
    AsIndexed,
    Stripped,
    Both,
}

/// One question of the Debian FAQ QA set.
#[derive(Deserialize)]
pub struct Qa {
    /// The question in English.
    pub q_en: String,
    /// The question in Portuguese.
    pub q_pt: String,
    // Absent from question sets used only for abstention.
    #[serde(default)]
    gold_en: String,
    #[serde(default)]
    gold_pt: String,
}

/// A JSON-lines question set.
pub fn read_qa<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> Result<Vec<T>, String> {
    std::fs::read_to_string(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{}: {e}", path.display())))
        .collect()
}

impl Qa {
    /// The question in `lang` ("en" or "pt").
    pub fn question(&self, lang: &str) -> &str {
        if lang == "en" {
            &self.q_en
        } else {
            &self.q_pt
        }
    }
    fn gold(&self, lang: &str) -> &str {
        if lang == "en" {
            &self.gold_en
        } else {
            &self.gold_pt
        }
    }
}

/// A line's words without a leading section number ("1.1 What is this FAQ?" -> what is this faq).
fn heading_words(line: &str) -> Vec<String> {
    let w = words(line);
    let skip = w
        .iter()
        .take_while(|x| x.chars().all(|c| c.is_ascii_digit()))
        .count();
    w[skip..].to_vec()
}

/// Removes lines (or runs of up to three lines) that spell one of `questions`.
fn strip_heading_lines(text: &str, questions: &HashSet<Vec<String>>) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut drop = vec![false; lines.len()];
    for span in 1..=3 {
        for start in 0..lines.len().saturating_sub(span - 1) {
            let joined = lines[start..start + span].join(" ");
            if questions.contains(&heading_words(&joined)) {
                drop[start..start + span].iter_mut().for_each(|d| *d = true);
            }
        }
    }
    drop.iter().any(|d| *d).then(|| {
        lines
            .iter()
            .zip(&drop)
            .filter(|(_, d)| !**d)
            .map(|(l, _)| *l)
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// The corpus with each question's own heading lines stripped and those chunks re-embedded;
/// how many chunks changed.
pub fn stripped_corpus(
    corpus: &Corpus,
    qa: &[Qa],
    embedder: &mut fonte_core::embed::Embedder<fonte_core::embed::native::OrtEncoder>,
) -> Result<(Corpus, usize), String> {
    let questions: HashSet<Vec<String>> = qa
        .iter()
        .flat_map(|q| [words(&q.q_en), words(&q.q_pt)])
        .collect();
    let mut chunks = corpus.chunks().to_vec();
    let mut vectors = corpus.vectors().to_vec();
    let mut changed = Vec::new();
    for (i, rec) in chunks.iter_mut().enumerate() {
        if let Some(t) = strip_heading_lines(&rec.chunk.text, &questions) {
            rec.chunk.text = t;
            changed.push(i);
        }
    }
    let texts: Vec<&str> = changed
        .iter()
        .map(|&i| chunks[i].chunk.text.as_str())
        .collect();
    let new_vectors = index::embed_all(embedder, &texts)?;
    for (&i, v) in changed.iter().zip(new_vectors) {
        vectors[i] = v;
    }
    let n = changed.len();
    Corpus::build(
        corpus.info().clone(),
        corpus.documents().to_vec(),
        chunks,
        vectors,
    )
    .map(|c| (c, n))
    .map_err(|e| e.to_string())
}

/// `fonte eval`.
pub fn run(args: &EvalArgs) -> Result<(), String> {
    let mut corpus = index::load(&args.corpus)?;
    let qa: Vec<Qa> = read_qa(&args.qa)?;
    let mut embedder = model::load_for(&args.model, &corpus)?;
    if let Some(unanswerable) = &args.answers {
        corpus.set_fusion(fonte_core::retrieve::Fusion::for_model(embedder.manifest()));
        return crate::answers::run(
            &corpus,
            &qa,
            unanswerable,
            &args.endpoint,
            args.budget,
            args.limit,
            &mut embedder,
        );
    }
    let fusion = fonte_core::retrieve::Fusion {
        k: args.rrf_k,
        dense_weight: args
            .dense_weight
            .unwrap_or(embedder.manifest().dense_weight),
    };
    corpus.set_fusion(fusion);
    let mut qv: HashMap<&str, Vec<Vec<f32>>> = HashMap::new();
    for lang in ["en", "pt"] {
        let mut v = Vec::new();
        for q in &qa {
            v.push(
                pollster::block_on(embedder.embed_query(q.question(lang)))
                    .map_err(|e| e.to_string())?,
            );
        }
        qv.insert(lang, v);
    }
    let mut variants = Vec::new();
    if args.variant != Variant::Stripped {
        variants.push(("as-indexed", None));
    }
    if args.variant != Variant::AsIndexed {
        let (mut c, n) = stripped_corpus(&corpus, &qa, &mut embedder)?;
        c.set_fusion(fusion);
        eprintln!("stripped question headings from {n} chunks");
        variants.push(("headings-stripped", Some(c)));
    }
    println!(
        "model {}, chunks {} (target {} tokens, overlap {}), budget {} chars, {} questions, rrf k {} dense weight {}",
        corpus.info().model_id,
        corpus.chunks().len(),
        corpus.info().chunk_params.target_tokens,
        corpus.info().chunk_params.overlap_tokens,
        args.budget,
        qa.len(),
        fusion.k,
        fusion.dense_weight
    );
    println!(
        "{:18} {:7} {:8} {:>6} {:>6} {:>6} {:>8}",
        "index", "pair", "ranking", "R@5", "R@10", "MRR", "R@budget"
    );
    for (variant, stripped) in &variants {
        let c = stripped.as_ref().unwrap_or(&corpus);
        for (q_lang, doc_lang) in [("en", "en"), ("pt", "pt"), ("pt", "en")] {
            let scope: Vec<u32> = (0..c.documents().len() as u32)
                .filter(|&d| {
                    c.documents()[d as usize]
                        .name
                        .contains(&format!(".{doc_lang}."))
                })
                .collect();
            let scope = (!scope.is_empty()).then_some(scope);
            for (name, mode) in [
                ("bm25", Mode::Lexical),
                ("dense", Mode::Dense),
                ("hybrid", Mode::Hybrid),
            ] {
                let outcomes: Vec<QuestionOutcome> = qa
                    .iter()
                    .enumerate()
                    .map(|(i, q)| {
                        let gold = GoldMatcher::new(q.gold(doc_lang));
                        let hits = c.search(
                            &Search::new(q.question(q_lang), Some(&qv[q_lang][i]))
                                .mode(mode)
                                .depth(100)
                                .scope(scope.as_deref()),
                        );
                        let is_hit = |h: &fonte_core::retrieve::Hit| {
                            gold.overlaps(&c.chunks()[h.chunk as usize].chunk.text)
                        };
                        QuestionOutcome {
                            ranked: hits.iter().map(is_hit).collect(),
                            budget_hit: c.evidence(&hits, args.budget).iter().any(is_hit),
                        }
                    })
                    .collect();
                let m: RetrievalMetrics = metrics(&outcomes);
                println!(
                    "{variant:18} {:7} {name:8} {:6.3} {:6.3} {:6.3} {:8.3}",
                    format!("{q_lang}->{doc_lang}"),
                    m.recall_at_5,
                    m.recall_at_10,
                    m.mrr,
                    m.recall_budget
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_a_numbered_heading_even_when_wrapped() {
        let q: HashSet<Vec<String>> = [words("What is the difference between Debian and other distributions? Why should I choose Debian?")].into();
        let text = "1.5 What is the difference between Debian and other distributions? Why\nshould I choose Debian?\nBecause it is free.";
        assert_eq!(
            strip_heading_lines(text, &q).as_deref(),
            Some("Because it is free.")
        );
        assert_eq!(strip_heading_lines("Nothing to strip here.", &q), None);
    }
}
