//! `fonte ask`: a question to a corpus file, answered by an LLM endpoint from the retrieved
//! evidence only (streamed to stdout), then its citations checked; or, with no endpoint, the
//! best passages and their best sentences. Abstention before the LLM prints the nearest
//! passages and sends nothing.

use std::cell::RefCell;
use std::io::Write;
use std::path::PathBuf;

use fonte_core::answer::abstain::{Threshold, PROBES};
use fonte_core::answer::ask::{
    ask, calibrate, Answer, AskError, AskEvent, AskParams, AskServices, Outcome, Request,
    TranslateWith,
};
use fonte_core::answer::cite::Piece;
use fonte_core::answer::library::{Counted, LibraryAnswer};
use fonte_core::answer::llm::{Api, Endpoint, Failure};
use fonte_core::answer::prompt::Lang;
use fonte_core::search::corpus::Corpus;

use crate::http::Ureq;
use crate::words::language;
use crate::{index, model, ModelArgs};

#[derive(Clone, Copy, clap::ValueEnum)]
enum ApiArg {
    Openai,
    Anthropic,
}

/// Where to ask (shared by `fonte ask` and `fonte eval --answers`).
#[derive(clap::Args)]
pub struct EndpointArgs {
    /// Base URL of the endpoint (e.g. http://127.0.0.1:8080/v1); without it the answer is
    /// extractive.
    #[arg(long)]
    endpoint: Option<String>,
    /// The model name the endpoint knows.
    #[arg(long, default_value = "default")]
    llm_model: String,
    /// The endpoint's API.
    #[arg(long, value_enum, default_value_t = ApiArg::Openai)]
    api: ApiArg,
    /// Environment variable holding the API key (never a command-line argument: it would
    /// stay in the shell's history).
    #[arg(long, default_value = "FONTE_API_KEY")]
    api_key_env: String,
    /// Sampling temperature.
    #[arg(long, default_value_t = 0.1)]
    temperature: f32,
    /// Most tokens of the answer.
    #[arg(long, default_value_t = 512)]
    max_tokens: u32,
}

/// What translates a question (`--translate`).
#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
pub enum TranslateArg {
    Endpoint,
    Here,
    Off,
}

impl TranslateArg {
    /// As the asking pipeline takes it.
    pub fn with(self) -> TranslateWith {
        match self {
            TranslateArg::Endpoint => TranslateWith::Endpoint,
            TranslateArg::Here => TranslateWith::Here,
            TranslateArg::Off => TranslateWith::Off,
        }
    }
}

impl EndpointArgs {
    /// The endpoint, when one is given.
    pub fn endpoint(&self) -> Option<Endpoint> {
        self.endpoint.as_ref().map(|base| Endpoint {
            api: match self.api {
                ApiArg::Openai => Api::OpenAi,
                ApiArg::Anthropic => Api::Anthropic,
            },
            base_url: base.clone(),
            model: self.llm_model.clone(),
            api_key: std::env::var(&self.api_key_env).ok(),
            temperature: self.temperature,
            max_tokens: self.max_tokens,
        })
    }
}

/// Arguments of `fonte ask`.
#[derive(clap::Args)]
pub struct AskArgs {
    /// Corpus file from `fonte index`.
    corpus: PathBuf,
    /// The question.
    question: String,
    #[command(flatten)]
    endpoint: EndpointArgs,
    /// What translates the question into the library's other language before searching (a
    /// library of English and Portuguese passages is searched with the question and its
    /// translation): `endpoint` (the default, when there is one), `here` (the translation models
    /// on this machine: nothing sent), `off`.
    #[arg(long, value_enum, default_value_t = TranslateArg::Endpoint)]
    translate: TranslateArg,
    /// Characters of passages the prompt may carry.
    #[arg(long, default_value_t = AskParams::default().budget_chars)]
    budget: usize,
    /// Search superseded versions too (by default only each group's current one: for "what
    /// changed?").
    #[arg(long)]
    all_versions: bool,
    #[command(flatten)]
    model: ModelArgs,
}

/// A failure's kind, as printed (and matched by scripts).
pub fn kind(f: &Failure) -> &'static str {
    match f {
        Failure::Unreachable { .. } => "unreachable",
        Failure::Unauthorized { .. } => "unauthorized",
        Failure::NotFound { .. } => "not-found",
        Failure::RateLimited { .. } => "rate-limited",
        Failure::Rejected { .. } => "rejected",
        Failure::Server { .. } => "server",
        Failure::Malformed { .. } => "malformed",
        Failure::Cut => "cut",
        Failure::Redirected => "redirected",
        Failure::TimedOut => "timed-out",
        Failure::Aborted => "aborted",
        Failure::NoModel => "no-model",
    }
}

/// Passages printed when no model answers.
const SHOWN: usize = 5;

/// Sources that say different things on one point, both printed.
fn print_conflicts(answer: &Answer) {
    for c in &answer.conflicts {
        println!("the sources disagree on this point; check which applies:");
        for side in [&c.first, &c.second] {
            if let Some(s) = answer.sources.get((side.n as usize).wrapping_sub(1)) {
                let said = s.text.get(side.span.clone()).unwrap_or("").trim();
                println!(
                    "  [{}] {}, page {}{}: {said}",
                    s.n,
                    s.doc,
                    s.page,
                    version(s)
                );
            }
        }
    }
}

fn print_sources(answer: &Answer) {
    for s in answer.sources.iter().take(SHOWN) {
        let best = answer
            .extracts
            .iter()
            .find(|x| x.n == s.n)
            .map(|x| s.text[x.span.clone()].trim());
        println!("[{}] {}, page {}{}", s.n, s.doc, s.page, version(s));
        if let Some(best) = best {
            println!("    » {best}");
        }
    }
}

/// ", version of 2025-02, supersedes 2023-03" for a source that is a version of a group.
fn version(s: &fonte_core::answer::prompt::Source) -> String {
    s.version
        .as_ref()
        .map(|n| format!(" ({})", crate::versions::note(n)))
        .unwrap_or_default()
}

/// `fonte ask`. Exit status: 0 when answered or abstained; an error (non-zero) when the
/// endpoint failed.
/// Embeds a query with the library's model.
pub type EmbedQuery<'a> = dyn FnMut(&str) -> Result<Vec<f32>, String> + 'a;

/// A corpus and a way to embed queries: what the core's asking pipeline needs of a library
/// (`fonte ask`, `fonte eval --answers`). The threshold is the corpus's own ([`threshold`]).
pub struct CorpusLibrary<'a> {
    pub corpus: &'a Corpus,
    pub embed: &'a RefCell<EmbedQuery<'a>>,
    pub threshold: Option<Threshold>,
    /// The translation models on this machine, when loaded (`--translate here`).
    pub translator: Option<&'a fonte_core::answer::translate::local::LocalTranslator>,
}

impl AskServices for CorpusLibrary<'_> {
    type Error = String;
    async fn embed_query(&self, text: &str) -> Result<Vec<f32>, String> {
        // Natively the model runs synchronously: no borrow is held across an await.
        (self.embed.borrow_mut())(text)
    }
    async fn threshold(&self) -> Result<Option<Threshold>, String> {
        Ok(self.threshold)
    }
    fn with_corpus<R>(&self, f: impl FnOnce(&Corpus) -> R) -> R {
        f(self.corpus)
    }
    async fn translate_here(
        &self,
        question: &str,
        to: Lang,
    ) -> Result<Option<fonte_core::answer::translate::Translation>, String> {
        Ok(self.translator.and_then(|t| t.translate(question, to)))
    }
}

/// `corpus`'s abstention threshold: the probe questions embedded by `embed`.
pub fn threshold(corpus: &Corpus, embed: &mut EmbedQuery<'_>) -> Result<Option<Threshold>, String> {
    let probes: Vec<Vec<f32>> = PROBES.iter().map(|p| embed(p)).collect::<Result<_, _>>()?;
    Ok(calibrate(corpus, &probes))
}

pub fn run(args: &AskArgs) -> Result<(), String> {
    let mut corpus = index::load(&args.corpus)?;
    let mut embedder = model::load_for(&args.model, &corpus)?;
    // The same ranking as `fonte search` and the page.
    corpus.rank_for(embedder.manifest());
    let embed = RefCell::new(|q: &str| {
        pollster::block_on(embedder.embed_query(q)).map_err(|e| e.to_string())
    });
    let threshold = threshold(&corpus, &mut *embed.borrow_mut())?;
    let translator = match args.translate {
        TranslateArg::Here => Some(crate::model::translator(std::path::Path::new("models"))?),
        _ => None,
    };
    let library = CorpusLibrary {
        corpus: &corpus,
        embed: &embed,
        threshold,
        translator: translator.as_ref(),
    };
    let endpoint = args.endpoint.endpoint();
    let transport = Ureq::new();
    let request = Request {
        question: &args.question,
        turns: &[],
        params: AskParams {
            budget_chars: args.budget,
            fallback: Lang::En,
            all_versions: args.all_versions,
            ..AskParams::default()
        },
        translate: args.translate.with(),
    };
    let mut out = std::io::stdout();
    let answer = pollster::block_on(ask(
        &library,
        &request,
        endpoint.as_ref().map(|e| (e, &transport)),
        &mut |event| match event {
            AskEvent::Translated(t) => {
                println!("searched also in {}: {}", language(t.lang), t.text)
            }
            AskEvent::TranslationSkipped(to, failure) => match failure {
                Some(f) => eprintln!(
                    "translation into {} skipped: error ({})",
                    language(to),
                    kind(f)
                ),
                None => eprintln!("translation into {} skipped: no usable reply", language(to)),
            },
            AskEvent::Text(t) => {
                let _ = out.write_all(t.as_bytes());
                let _ = out.flush();
            }
            _ => {}
        },
    ))
    .map_err(|e| match e {
        AskError::Services(e) => e,
        AskError::Endpoint(f) => format!("error ({}): {f}", kind(&f)),
    })?;
    match answer.outcome {
        Outcome::AbstainedBeforeAsking => {
            let (best, limit) = answer
                .evidence
                .map_or((f32::NAN, f32::NAN), |(e, t)| (e.top, t.top));
            println!(
                "abstained: the documents do not seem to hold the answer (best passage {best:.3}, below this library's threshold {limit:.3}); nothing was sent. Nearest passages:"
            );
            print_sources(&answer);
        }
        Outcome::Library => print_library(&answer),
        Outcome::Extractive => {
            println!("no endpoint: the best passages, with their sentences nearest the question:");
            print_sources(&answer);
            print_conflicts(&answer);
        }
        Outcome::AbstainedByModel | Outcome::Answered => {
            println!();
            if answer.outcome == Outcome::AbstainedByModel {
                println!("abstained (the model): the sources do not hold the answer");
            }
            print_conflicts(&answer);
            println!("citations:");
            for piece in answer.pieces() {
                let Piece::Cite(cited) = piece else { continue };
                for c in cited {
                    match answer
                        .sources
                        .get((c.n as usize).wrapping_sub(1))
                        .filter(|_| c.valid)
                    {
                        Some(s) => println!(
                            "  [{}] valid: {}, page {}, chars {}..{}{}",
                            c.n,
                            s.doc,
                            s.page,
                            s.char_start,
                            s.char_end,
                            version(s)
                        ),
                        None => match answer.sources.get((c.n as usize).wrapping_sub(1)) {
                            Some(s) => println!(
                                "  [{}] unsupported: {}{} (not evidence unless --all-versions)",
                                c.n,
                                s.doc,
                                version(s)
                            ),
                            None => println!("  [{}] unsupported: no such source", c.n),
                        },
                    }
                }
            }
            for s in &answer.sentences {
                if let Some(n) = s.matched {
                    let text = answer.text[s.span.clone()].trim();
                    println!("  [{n}] matched by Fonte (uncited by the model): {text}");
                }
            }
            let low = answer.sentences.iter().filter(|s| s.low).count();
            println!(
                "sentences: {} ({} with low support)",
                answer.sentences.len(),
                low
            );
            println!("sources:");
            for s in &answer.sources {
                println!("  [{}] {}, page {}", s.n, s.doc, s.page);
            }
        }
    }
    Ok(())
}

/// A question about the library, answered from its records (nothing searched, nothing sent).
fn print_library(answer: &Answer) {
    println!("about the library (from its records; nothing searched, nothing sent):");
    match &answer.library {
        Some(LibraryAnswer::Count { what, n }) => {
            let what = match what {
                Counted::Documents => "documents",
                Counted::Pages => "pages",
                Counted::Passages => "passages",
            };
            println!("{what}: {n}");
        }
        Some(LibraryAnswer::Documents(docs)) => {
            println!("documents: {}", docs.len());
            for d in docs {
                let published = d
                    .published
                    .map(|p| format!(", published {}", crate::versions::date(p)))
                    .unwrap_or_default();
                match d.mentions {
                    Some(m) => {
                        println!("  {} ({} pages{published}): {m} mentions", d.name, d.pages)
                    }
                    None => println!("  {} ({} pages{published})", d.name, d.pages),
                }
            }
        }
        None => {}
    }
}
