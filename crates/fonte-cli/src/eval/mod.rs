//! `fonte eval`: retrieval metrics of a corpus on a question set, per language pair and
//! ranking, scoped to the documents that answer and unscoped (the whole library, as a user
//! asks), for each way the dense ranking can treat languages (`--languages`). The FAQ set is
//! also scored with each question's own heading stripped from the index (the questions are
//! headings in the FAQ, so a question would otherwise find itself).

mod answers;
mod cases;
mod gap;
mod qa;
mod translations;

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use fonte_core::answer::translate::Translated;
use fonte_core::eval::{metrics, QuestionOutcome};
use fonte_core::search::corpus::Corpus;
use fonte_core::search::retrieve::{Fusion, Languages, Mode, Search, Wording};

use crate::{index, model, ModelArgs};
use cases::{cases, Case, PAIRS};
pub use qa::{read_qa, stripped_corpus, Qa};
use translations::translations;

/// Arguments of `fonte eval`.
#[derive(clap::Args)]
pub struct EvalArgs {
    /// Corpus file from `fonte index`.
    corpus: PathBuf,
    /// Question set, one JSON object per line (the FAQ format or the mixed-library format:
    /// tests/fixtures/qa/README.md).
    qa: PathBuf,
    /// Evidence budget in characters.
    #[arg(long, default_value_t = 4000)]
    budget: usize,
    /// Passages each ranking contributes to the fusion (what the app searches with).
    #[arg(long, default_value_t = fonte_core::search::retrieve::DEPTH)]
    depth: usize,
    /// Which index variants to score (FAQ format; a mixed set is scored as indexed).
    #[arg(long, value_enum, default_value_t = Variant::Both)]
    variant: Variant,
    /// RRF constant for hybrid ranking.
    #[arg(long, default_value_t = fonte_core::search::retrieve::Fusion::default().k)]
    rrf_k: f32,
    /// Weight of the dense ranking in hybrid fusion (BM25's is 1) [default: the model
    /// manifest's `dense_weight`].
    #[arg(long)]
    dense_weight: Option<f32>,
    /// How the dense ranking treats languages, one or more, comma-separated [default: what
    /// the app ships].
    #[arg(long, value_enum, value_delimiter = ',')]
    languages: Vec<LanguagesArg>,
    /// The language gap for `--languages offset` [default: the model manifest's].
    #[arg(long)]
    language_gap: Option<f32>,
    /// The language axis for `--languages projected`, a JSON file of `fonte language-axis`
    /// [default: the model manifest's].
    #[arg(long)]
    language_direction: Option<PathBuf>,
    /// Also search each question with its translation into the library's other language,
    /// as the page does when asking with an endpoint, and print those rows beside the others
    /// (`+tr`): `endpoint` asks `--endpoint` for it; `here` runs the translation models on this
    /// machine, as the page does with no endpoint; `reference` takes the set's own wording
    /// of the question in that language (what a capable model's translation comes close to).
    #[arg(long, value_enum)]
    translate: Option<TranslateArg>,
    /// Weight of a translation's rankings relative to the question's own, for `--translate`.
    #[arg(long, default_value_t = fonte_core::search::retrieve::WORDING_WEIGHT)]
    translation_weight: f32,
    /// Also write each question's outcome, one JSON object per line, to this file.
    #[arg(long)]
    per_question: Option<PathBuf>,
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

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum TranslateArg {
    Endpoint,
    /// The translation models on this machine (models/translate-*), as the page runs them.
    Here,
    Reference,
}

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum LanguagesArg {
    Joint,
    PerLanguage,
    Interleaved,
    Centered,
    Offset,
    Projected,
    Hubness,
}

impl LanguagesArg {
    fn languages(self) -> Languages {
        match self {
            Self::Joint => Languages::Joint,
            Self::PerLanguage => Languages::PerLanguage,
            Self::Interleaved => Languages::Interleaved,
            Self::Centered => Languages::Centered,
            Self::Offset => Languages::Offset,
            Self::Projected => Languages::Projected,
            Self::Hubness => Languages::Hubness,
        }
    }
}

/// Label of a [`Languages`] in the table.
fn label(l: Languages) -> &'static str {
    match l {
        Languages::Joint => "joint",
        Languages::PerLanguage => "per-language",
        Languages::Interleaved => "interleaved",
        Languages::Centered => "centered",
        Languages::Offset => "offset",
        Languages::Projected => "projected",
        Languages::Hubness => "hubness",
    }
}

const RANKINGS: [(&str, Mode); 3] = [
    ("bm25", Mode::Lexical),
    ("dense", Mode::Dense),
    ("hybrid", Mode::Hybrid),
];

/// One question's ranked hits judged against its gold passage.
fn outcome(
    c: &Corpus,
    case: &Case,
    vector: &[f32],
    translated: &[Translated],
    mode: Mode,
    scoped: bool,
    (budget, depth): (usize, usize),
) -> QuestionOutcome {
    let scope = scoped.then_some(case.scope.as_slice());
    let also: Vec<Wording> = translated.iter().map(Translated::wording).collect();
    let hits = c.search(
        &Search::new(case.question, Some(vector))
            .also(&also)
            .mode(mode)
            .depth(depth)
            .scope(scope),
    );
    let is_hit = |h: &fonte_core::search::retrieve::Hit| {
        case.gold.overlaps(&c.chunks()[h.chunk as usize].chunk.text)
    };
    QuestionOutcome {
        ranked: hits.iter().map(is_hit).collect(),
        budget_hit: c.evidence(&hits, budget).iter().any(is_hit),
    }
}

/// `fonte eval`.
pub fn run(args: &EvalArgs) -> Result<(), String> {
    let mut corpus = index::load(&args.corpus)?;
    let qa: Vec<Qa> = read_qa(&args.qa)?;
    let mut embedder = model::load_for(&args.model, &corpus)?;
    if let Some(unanswerable) = &args.answers {
        corpus.rank_for(embedder.manifest());
        return answers::run(
            &corpus,
            &qa,
            unanswerable,
            &args.endpoint,
            args.budget,
            args.limit,
            &mut embedder,
        );
    }
    let shipped = Fusion::for_model(embedder.manifest());
    let fusion = Fusion {
        k: args.rrf_k,
        dense_weight: args.dense_weight.unwrap_or(shipped.dense_weight),
        language_gap: args.language_gap.unwrap_or(shipped.language_gap),
        wording_weight: args.translation_weight,
        ..shipped
    };
    let direction = match &args.language_direction {
        Some(p) => crate::language_axis::read(p)?,
        None => embedder.manifest().language_direction.clone(),
    };
    corpus.set_language_direction(direction.clone());
    let candidates: Vec<Languages> = if args.languages.is_empty() {
        vec![shipped.languages]
    } else {
        args.languages.iter().map(|l| l.languages()).collect()
    };
    let hubness = candidates.contains(&Languages::Hubness);
    if hubness {
        corpus.keep_neighbours();
    }
    let all = cases(&corpus, &qa)?;
    let mixed = qa.first().is_some_and(|q| q.doc.is_some());
    let mut vectors: HashMap<&str, Vec<f32>> = HashMap::new();
    for case in &all {
        if !vectors.contains_key(case.question) {
            let v = pollster::block_on(embedder.embed_query(case.question))
                .map_err(|e| e.to_string())?;
            vectors.insert(case.question, v);
        }
    }
    let translations = match args.translate {
        Some(how) => translations(how, &corpus, &all, &args.endpoint, &mut embedder)?,
        None => HashMap::new(),
    };
    // The gap needs both languages' questions embedded: a FAQ document in the corpus.
    if !mixed && !all.is_empty() {
        let [en, pt] = gap::language_gap(&qa, &vectors, &mut embedder, &[])?;
        println!(
            "language gap (mean cosine to the gold passage in the question's language less to the same passage in the other): English questions {en:.4}, Portuguese {pt:.4}, both {:.4}",
            (en + pt) / 2.0
        );
        if !direction.is_empty() {
            let [en, pt] = gap::language_gap(&qa, &vectors, &mut embedder, &direction)?;
            println!(
                "language gap with the language axis projected out: English questions {en:.4}, Portuguese {pt:.4}, both {:.4}",
                (en + pt) / 2.0
            );
        }
    }
    let mut variants = Vec::new();
    if args.variant != Variant::Stripped || mixed {
        variants.push(("as-indexed", None));
    }
    if args.variant != Variant::AsIndexed && !mixed {
        let (mut c, n) = stripped_corpus(&corpus, &qa, &mut embedder)?;
        c.set_language_direction(direction.clone());
        if hubness {
            c.keep_neighbours();
        }
        eprintln!("stripped question headings from {n} chunks");
        variants.push(("headings-stripped", Some(c)));
    }
    println!(
        "model {}, chunks {} (target {} tokens, overlap {}), {} documents, budget {} chars, {} questions ({} scored), rrf k {} dense weight {}",
        corpus.info().model_id,
        corpus.chunks().len(),
        corpus.info().chunk_params.target_tokens,
        corpus.info().chunk_params.overlap_tokens,
        corpus.documents().len(),
        args.budget,
        qa.len(),
        all.len(),
        fusion.k,
        fusion.dense_weight
    );
    let mut per_question = match &args.per_question {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };
    println!(
        "{:18} {:8} {:15} {:7} {:8} {:>4} {:>6} {:>6} {:>6} {:>8}",
        "index", "scope", "languages", "pair", "ranking", "n", "R@5", "R@10", "MRR", "R@budget"
    );
    for (variant, stripped) in &mut variants {
        let c = stripped.as_mut().unwrap_or(&mut corpus);
        let with: &[bool] = if args.translate.is_some() {
            &[false, true]
        } else {
            &[false]
        };
        for (&languages, &translating) in candidates
            .iter()
            .flat_map(|l| with.iter().map(move |t| (l, t)))
        {
            c.set_fusion(Fusion {
                languages,
                ..fusion
            });
            let label = format!(
                "{}{}",
                label(languages),
                if translating { "+tr" } else { "" }
            );
            let none = Vec::new();
            let translated_of = |q: &str| {
                if translating {
                    translations.get(q).unwrap_or(&none)
                } else {
                    &none
                }
            };
            for scoped in [true, false] {
                for pair in PAIRS {
                    let of_pair: Vec<&Case> = all
                        .iter()
                        .filter(|k| k.pair == pair && (scoped || k.unscoped))
                        .collect();
                    if of_pair.is_empty() {
                        continue;
                    }
                    for (name, mode) in RANKINGS {
                        let outcomes: Vec<QuestionOutcome> = of_pair
                            .iter()
                            .map(|k| {
                                outcome(
                                    c,
                                    k,
                                    &vectors[k.question],
                                    translated_of(k.question),
                                    mode,
                                    scoped,
                                    (args.budget, args.depth),
                                )
                            })
                            .collect();
                        let scope = if scoped { "scoped" } else { "unscoped" };
                        if let Some(f) = per_question.as_mut() {
                            for (k, o) in of_pair.iter().zip(&outcomes) {
                                let line = serde_json::json!({
                                    "index": variant, "scope": scope, "languages": label,
                                    "pair": pair, "ranking": name, "id": k.id,
                                    "first_hit": o.ranked.iter().position(|h| *h).map(|p| p + 1),
                                    "budget_hit": o.budget_hit,
                                });
                                writeln!(f, "{line}").map_err(|e| e.to_string())?;
                            }
                        }
                        let m = metrics(&outcomes);
                        println!(
                            "{variant:18} {scope:8} {label:15} {pair:7} {name:8} {:4} {:6.3} {:6.3} {:6.3} {:8.3}",
                            m.questions,
                            m.recall_at_5,
                            m.recall_at_10,
                            m.mrr,
                            m.recall_budget
                        );
                    }
                }
            }
        }
    }
    Ok(())
}
