//! `fonte eval --answers`: what asking does on a question set, per language: how often the
//! abstention before the LLM holds back on questions the corpus answers (false abstention) and
//! on questions it does not; and, with an endpoint, what the model makes of the evidence: its
//! own abstentions, answers with citation markers, answers whose markers are all valid, and
//! the share of sentences supported (validly cited with enough support, or matched to a
//! passage by Fonte). The answerable questions are asked of the corpus with their own heading
//! lines stripped (as in `fonte eval`): a question that finds itself would flatter the figures.

use std::cell::RefCell;
use std::path::Path;

use fonte_core::answer::ask::{
    prepare_question, reply, Answer, AskParams, Outcome, Prepared, Request,
};
use fonte_core::answer::cite::{parse, Piece};
use fonte_core::answer::conflict::conflicts;
use fonte_core::answer::llm::Endpoint;
use fonte_core::answer::prompt::Lang;
use fonte_core::search::corpus::Corpus;
use serde::Deserialize;

use super::{read_qa, stripped_corpus, Qa};
use crate::ask::{kind, threshold, CorpusLibrary, EndpointArgs};
use crate::http::Ureq;

#[derive(Deserialize)]
struct Absent {
    q_en: String,
    q_pt: String,
}

impl Absent {
    fn question(&self, lang: &str) -> &str {
        if lang == "en" {
            &self.q_en
        } else {
            &self.q_pt
        }
    }
}

/// What the model did with the questions it was sent.
#[derive(Default)]
struct Asked {
    sent: usize,
    failed: usize,
    abstained: usize,
    answered: usize,
    with_markers: usize,
    all_valid: usize,
    sentences: usize,
    supported: usize,
}

fn share(n: usize, of: usize) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.3}", n as f32 / of as f32)
    }
}

/// Sends a question that passed abstention (`prepared`) to `endpoint` through the asking
/// pipeline's reply, recording what came back.
fn ask_one(question: &str, prepared: Prepared, endpoint: (&Endpoint, &Ureq), asked: &mut Asked) {
    asked.sent += 1;
    let a: Answer = match pollster::block_on(reply(prepared, Some(endpoint), &mut |_| {})) {
        Ok(a) => a,
        Err(f) => {
            eprintln!("  {question}: error ({})", kind(&f));
            asked.failed += 1;
            return;
        }
    };
    if a.outcome == Outcome::AbstainedByModel {
        asked.abstained += 1;
        return;
    }
    asked.answered += 1;
    let markers: Vec<_> = a
        .pieces()
        .into_iter()
        .filter_map(|p| match p {
            Piece::Cite(c) => Some(c),
            Piece::Text(_) => None,
        })
        .flatten()
        .collect();
    if !parse(&a.text).is_empty() {
        asked.with_markers += 1;
        if markers.iter().all(|c| c.valid) {
            asked.all_valid += 1;
        }
    }
    asked.sentences += a.sentences.len();
    asked.supported += a.sentences.iter().filter(|s| !s.low).count();
}

/// `fonte eval --answers <unanswerable>`: see the module.
pub fn run(
    corpus: &Corpus,
    answerable: &[Qa],
    unanswerable: &Path,
    endpoint: &EndpointArgs,
    budget: usize,
    limit: usize,
    embedder: &mut fonte_core::embed::Embedder<fonte_core::embed::native::OrtEncoder>,
) -> Result<(), String> {
    let absent: Vec<Absent> = read_qa(unanswerable)?;
    let (mut stripped, n) = stripped_corpus(corpus, answerable, embedder)?;
    stripped.rank_for(embedder.manifest());
    eprintln!("stripped question headings from {n} chunks");
    let embed = RefCell::new(|q: &str| {
        pollster::block_on(embedder.embed_query(q)).map_err(|e| e.to_string())
    });
    let threshold_answerable = threshold(&stripped, &mut *embed.borrow_mut())?;
    let threshold_absent = threshold(corpus, &mut *embed.borrow_mut())?;
    if let Some(t) = threshold_absent {
        println!(
            "threshold: {:.3} (0.9 quantile of {} probes' best cosines)",
            t.top, t.probes
        );
    }
    let ep = endpoint.endpoint();
    let transport = Ureq::new();
    println!("| lang | questions | abstained before asking | evidence with a conflict flagged | sent | model abstained | answered | with [n] | all [n] valid | sentences supported |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (lang, fallback) in [("en", Lang::En), ("pt", Lang::Pt)] {
        let params = AskParams {
            budget_chars: budget,
            fallback,
            ..AskParams::default()
        };
        for (set, c, t, questions) in [
            (
                "answerable",
                &stripped,
                threshold_answerable,
                answerable
                    .iter()
                    .map(|q| q.question(lang))
                    .collect::<Vec<_>>(),
            ),
            (
                "out of corpus",
                corpus,
                threshold_absent,
                absent.iter().map(|q| q.question(lang)).collect(),
            ),
        ] {
            let library = CorpusLibrary {
                corpus: c,
                embed: &embed,
                threshold: t,
                translator: None,
            };
            let mut abstained = 0;
            let mut flagged = 0;
            let mut asked = Asked::default();
            for (i, q) in questions.iter().enumerate() {
                // The page's pipeline; the endpoint is only asked below, for the first `limit`.
                let ready = pollster::block_on(prepare_question(
                    &library,
                    &request(q, &params),
                    ep.as_ref().map(|e| (e, &transport)),
                    &mut |_| {},
                ))?;
                let before = matches!(
                    ready.prepared,
                    Prepared::Done(ref a) if a.outcome == Outcome::AbstainedBeforeAsking
                );
                abstained += usize::from(before);
                if !before {
                    // Sources that disagree among all the evidence found (docs/QUALITY.md §7).
                    let sources = ready.prepared.sources();
                    let found = conflicts(sources, &[]);
                    flagged += usize::from(!found.is_empty());
                    for c in &found {
                        let said = |s: &fonte_core::answer::conflict::Side| {
                            let source = &sources[s.n as usize - 1];
                            format!(
                                "{} p.{}: {}",
                                source.doc,
                                source.page,
                                source.text[s.span.clone()].trim()
                            )
                        };
                        eprintln!(
                            "  conflict for {q:?}:\n    {}\n    {}",
                            said(&c.first),
                            said(&c.second)
                        );
                    }
                }
                if let (Some(e), false, true) = (&ep, before, i < limit) {
                    ask_one(q, ready.prepared, (e, &transport), &mut asked);
                }
            }
            let a = &asked;
            println!(
                "| {lang} | {set} ({}) | {} | {} | {} | {} | {} | {} | {} | {} |",
                questions.len(),
                share(abstained, questions.len()),
                share(flagged, questions.len() - abstained),
                a.sent,
                share(a.abstained, a.sent - a.failed),
                share(a.answered, a.sent - a.failed),
                share(a.with_markers, a.answered),
                share(a.all_valid, a.with_markers),
                share(a.supported, a.sentences),
            );
        }
    }
    Ok(())
}

/// A first question, without translation (the sets measure the question as asked).
fn request<'a>(question: &'a str, params: &AskParams) -> Request<'a> {
    Request {
        question,
        turns: &[],
        params: *params,
        translate: fonte_core::answer::ask::TranslateWith::Off,
    }
}
