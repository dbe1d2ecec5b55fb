//! Asking a library: retrieve the evidence, abstain before the LLM when it is too weak
//! ([`crate::abstain`]), else build the evidence-only prompt ([`crate::prompt`]), stream the
//! model's answer ([`crate::llm`]) and check its citations ([`crate::cite`]). With no
//! endpoint, the answer is *extractive*: the best passages with their sentences that best
//! match the question, cited the same way. The same path serves the browser app and
//! `fonte ask`.

use serde::{Deserialize, Serialize};

use crate::abstain::{evidence, Evidence, Threshold};
use crate::cite::{passage_sentences, sentences, Sentence};
use crate::corpus::Corpus;
use crate::lexical::terms;
use crate::llm::{stream_answer, Endpoint, Failure, Transport};
use crate::prompt::{build, is_abstention, Lang, Source, Turn};
use crate::retrieve::{Search, Wording};
use crate::translate::{Translated, Translation};

/// How to ask.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AskParams {
    /// Characters of passages the prompt may carry.
    pub budget_chars: usize,
    /// Passages retrieved before the budget is applied.
    pub depth: usize,
    /// The interface language, for a question that does not show its own.
    pub fallback: Lang,
}

impl Default for AskParams {
    fn default() -> Self {
        Self {
            budget_chars: 4000,
            depth: crate::retrieve::DEPTH,
            fallback: Lang::En,
        }
    }
}

/// How an answer came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// The model answered from the sources.
    Answered,
    /// The evidence was below the library's threshold: nothing was sent.
    AbstainedBeforeAsking,
    /// The model replied with the abstention sentence.
    AbstainedByModel,
    /// No endpoint: the best passages, their best sentences marked.
    Extractive,
}

/// A sentence of a passage that best matches the question (extractive answers).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extract {
    /// The source's number.
    pub n: u32,
    /// Byte range of the sentence in the source's text.
    pub span: std::ops::Range<usize>,
}

/// A finished answer, as kept in the conversation's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The question asked.
    pub question: String,
    /// Its language.
    pub lang: Lang,
    /// How it came about.
    pub outcome: Outcome,
    /// The passages given to the model (or shown), numbered as cited.
    pub sources: Vec<Source>,
    /// The model's text (empty when none was asked).
    pub text: String,
    /// Its sentences with their citations and support.
    pub sentences: Vec<Sentence>,
    /// Extractive answers: the best sentence of each source.
    pub extracts: Vec<Extract>,
    /// The question's evidence and the library's threshold, when both were known.
    pub evidence: Option<(Evidence, Threshold)>,
    /// The translations of the question searched with it ([`crate::translate`]).
    #[serde(default)]
    pub translations: Vec<Translation>,
}

/// What the page learns while an answer is made.
#[derive(Debug, Clone, PartialEq)]
pub enum AskEvent<'a> {
    /// The sources chosen (before any request).
    Sources(&'a [Source]),
    /// More of the model's text.
    Text(&'a str),
}

/// The text retrieval searches with: a follow-up carries the previous question, so "and in
/// Portuguese?" finds what the conversation is about (no extra LLM call).
pub fn retrieval_query(turns: &[Turn], question: &str) -> String {
    match turns.last() {
        Some(t) => format!("{} {}", t.question.trim(), question.trim()),
        None => question.trim().to_string(),
    }
}

/// The library's threshold, from the probes' query vectors ([`crate::abstain::PROBES`],
/// embedded as queries by the caller's model); `None` for a library too small to tell.
pub fn calibrate(corpus: &Corpus, probe_vectors: &[Vec<f32>]) -> Option<Threshold> {
    let found: Vec<Evidence> = probe_vectors
        .iter()
        .filter_map(|v| evidence(v, corpus.vectors()))
        .collect();
    Threshold::calibrate(&found)
}

/// The ranked passages for `query` (hybrid, with its `translated` wordings) within the
/// budget, as numbered sources.
pub fn sources(
    corpus: &Corpus,
    query: &str,
    vector: &[f32],
    translated: &[Translated],
    params: &AskParams,
) -> Vec<Source> {
    let also: Vec<Wording<'_>> = translated.iter().map(Translated::wording).collect();
    let hits = corpus.search(
        &Search::new(query, Some(vector))
            .also(&also)
            .depth(params.depth),
    );
    corpus
        .evidence(&hits, params.budget_chars)
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let c = &corpus.chunks()[h.chunk as usize];
            let doc = &corpus.documents()[c.doc as usize];
            Source {
                n: i as u32 + 1,
                doc_id: doc.id.clone(),
                doc: doc.title.clone().unwrap_or_else(|| doc.name.clone()),
                page: c.chunk.page,
                char_start: c.chunk.char_start,
                char_end: c.chunk.char_end,
                text: c.chunk.text.clone(),
            }
        })
        .collect()
}

/// The sentence of each source sharing most content words with the question.
pub fn extracts(question: &str, sources: &[Source]) -> Vec<Extract> {
    let wanted: std::collections::HashSet<String> = terms(question).into_iter().collect();
    sources
        .iter()
        .filter_map(|s| {
            let spans = passage_sentences(&s.text);
            // The first of equally good sentences; none when no sentence shares a word (a
            // passage found by meaning alone is shown unmarked).
            let (shared, _, best) = spans
                .into_iter()
                .enumerate()
                .map(|(i, span)| {
                    let shared = terms(&s.text[span.clone()])
                        .iter()
                        .filter(|w| wanted.contains(*w))
                        .count();
                    (shared, std::cmp::Reverse(i), span)
                })
                .max_by_key(|(shared, i, _)| (*shared, *i))?;
            (shared > 0).then_some(Extract { n: s.n, span: best })
        })
        .collect()
}

/// An answer before the model is asked: either finished already (abstained before asking,
/// or extractive), or waiting for the model's reply to `prompt`.
#[derive(Debug, Clone, PartialEq)]
pub enum Prepared {
    /// Nothing to send.
    Done(Answer),
    /// Send `prompt`; [`finish`] the answer with the model's text.
    Ask {
        /// The answer so far (question, language, evidence).
        answer: Answer,
        /// The evidence-only prompt; its sources are the ones to cite.
        prompt: crate::prompt::Prompt,
    },
}

impl Prepared {
    /// The sources the answer cites (or shows).
    pub fn sources(&self) -> &[Source] {
        match self {
            Prepared::Done(a) => &a.sources,
            Prepared::Ask { prompt, .. } => &prompt.sources,
        }
    }
}

/// Everything before the request, with `corpus` borrowed only here: retrieval, the threshold,
/// the prompt. `vector` is the query vector of [`retrieval_query`], `translated` its
/// translations ([`crate::translate`]; none without an endpoint); `threshold` the library's
/// ([`calibrate`]); without an endpoint (`asking` false) the answer is extractive.
#[allow(clippy::too_many_arguments)]
pub fn prepare(
    corpus: &Corpus,
    question: &str,
    vector: &[f32],
    translated: &[Translated],
    turns: &[Turn],
    threshold: Option<Threshold>,
    asking: bool,
    params: &AskParams,
) -> Prepared {
    let query = retrieval_query(turns, question);
    let found = sources(corpus, &query, vector, translated, params);
    let lang = Lang::of(question, params.fallback);
    // The best evidence of any wording: an answer in the other language stands out to the
    // question's translation, not always to the question.
    let best = std::iter::once(vector)
        .chain(translated.iter().map(|t| t.vector.as_slice()))
        .filter_map(|v| evidence(v, corpus.vectors()))
        .max_by(|a, b| a.top.total_cmp(&b.top));
    let judged = match (threshold, best) {
        (Some(t), Some(e)) => Some((e, t)),
        _ => None,
    };
    let mut answer = Answer {
        question: question.to_string(),
        lang,
        outcome: Outcome::Extractive,
        sources: Vec::new(),
        text: String::new(),
        sentences: Vec::new(),
        extracts: Vec::new(),
        evidence: judged,
        translations: translated.iter().map(|t| t.translation.clone()).collect(),
    };
    let weak = found.is_empty() || judged.is_some_and(|(e, t)| t.abstains(&e));
    if weak || !asking {
        // Abstaining, the nearest passages are still shown, as what was found.
        if weak {
            answer.outcome = Outcome::AbstainedBeforeAsking;
        }
        answer.extracts = extracts(question, &found);
        answer.sources = found;
        return Prepared::Done(answer);
    }
    let prompt = build(question, turns, found, params.budget_chars, params.fallback);
    Prepared::Ask { answer, prompt }
}

/// The answer once the model replied `text` to `prompt`: an abstention when it said the
/// abstention sentence, else its sentences with their citations checked.
pub fn finish(mut answer: Answer, prompt: crate::prompt::Prompt, text: String) -> Answer {
    let texts: Vec<&str> = prompt.sources.iter().map(|s| s.text.as_str()).collect();
    answer.outcome = if is_abstention(&text) {
        Outcome::AbstainedByModel
    } else {
        Outcome::Answered
    };
    answer.sentences = sentences(&text, &texts);
    answer.text = text;
    answer.sources = prompt.sources;
    answer
}

/// Asks `question` of `corpus` after the earlier `turns` ([`prepare`], the request, then
/// [`finish`]). A failure of the endpoint is returned with nothing lost: the caller still has
/// the question to retry.
#[allow(clippy::too_many_arguments)]
pub async fn ask<T: Transport>(
    corpus: &Corpus,
    question: &str,
    vector: &[f32],
    translated: &[Translated],
    turns: &[Turn],
    threshold: Option<Threshold>,
    endpoint: Option<(&Endpoint, &T)>,
    params: &AskParams,
    on: &mut dyn FnMut(AskEvent<'_>),
) -> Result<Answer, Failure> {
    let prepared = prepare(
        corpus,
        question,
        vector,
        translated,
        turns,
        threshold,
        endpoint.is_some(),
        params,
    );
    on(AskEvent::Sources(prepared.sources()));
    match (prepared, endpoint) {
        (Prepared::Done(answer), _) => Ok(answer),
        (Prepared::Ask { answer, prompt }, Some((endpoint, transport))) => {
            let text =
                stream_answer(transport, endpoint, &prompt, &mut |t| on(AskEvent::Text(t))).await?;
            Ok(finish(answer, prompt, text))
        }
        (Prepared::Ask { answer, .. }, None) => Ok(answer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::Chunk;
    use crate::corpus::{BuildInfo, ChunkRecord, DocumentMeta};
    use crate::embed::fake::FakeEncoder;
    use crate::llm::fake::{Reply, Scripted};
    use crate::llm::Api;
    use crate::pdf::Report;

    const TEXTS: [&str; 3] = [
        "Boats float on water. They are built from wood or steel.",
        "Bicycles have two wheels. Riders pedal them.",
        "Contracts end when both parties sign a termination.",
    ];

    fn corpus() -> Corpus {
        let info = BuildInfo {
            model_id: "m".into(),
            dim: FakeEncoder::DIM,
            chunk_params: Default::default(),
        };
        let doc = DocumentMeta {
            build: None,
            id: "d1".into(),
            name: "things.pdf".into(),
            title: None,
            pages: 3,
            report: Report::Complete,
        };
        let mut enc = FakeEncoder::new("m");
        let chunks = TEXTS
            .iter()
            .enumerate()
            .map(|(i, t)| ChunkRecord {
                doc: 0,
                chunk: Chunk {
                    page: i as u32 + 1,
                    char_start: 10,
                    char_end: 10 + t.chars().count(),
                    heading_path: Vec::new(),
                    text: (*t).into(),
                },
            })
            .collect();
        let vectors = TEXTS.iter().map(|t| enc.embed(t)).collect();
        Corpus::build(info, vec![doc], chunks, vectors).unwrap()
    }

    fn vector(q: &str) -> Vec<f32> {
        FakeEncoder::new("m").embed(q)
    }

    fn endpoint() -> Endpoint {
        Endpoint {
            api: Api::OpenAi,
            base_url: "http://127.0.0.1:1/v1".into(),
            model: "tiny".into(),
            api_key: None,
            temperature: 0.0,
            max_tokens: 100,
        }
    }

    fn openai(text: &str) -> String {
        let delta = serde_json::json!({ "choices": [{ "delta": { "content": text } }] });
        format!("data: {delta}\n\ndata: [DONE]\n\n")
    }

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        pollster::block_on(f)
    }

    #[test]
    fn weak_evidence_abstains_without_any_request_and_shows_what_was_found() {
        let c = corpus();
        let t = Scripted::new(vec![Ok(Reply::stream(&openai("x"), 4))]);
        let high = Threshold {
            top: 2.0,
            probes: 1,
        };
        let q = "How do boats float?";
        let a = run(ask(
            &c,
            q,
            &vector(q),
            &[],
            &[],
            Some(high),
            Some((&endpoint(), &t)),
            &AskParams::default(),
            &mut |_| {},
        ))
        .unwrap();
        assert_eq!(a.outcome, Outcome::AbstainedBeforeAsking);
        assert!(t.sent.borrow().is_empty(), "no request");
        assert_eq!(a.sources[0].page, 1, "the nearest passages are shown");
        assert!(!a.extracts.is_empty());
    }

    #[test]
    fn an_answer_streams_and_its_citations_are_checked() {
        let c = corpus();
        let reply = "Boats float on water [1]. They fly to the moon [7].";
        let t = Scripted::new(vec![Ok(Reply::stream(&openai(reply), 5))]);
        let low = Threshold {
            top: -2.0,
            probes: 1,
        };
        let q = "How do boats float?";
        let mut streamed = String::new();
        let mut shown = 0;
        let a = run(ask(
            &c,
            q,
            &vector(q),
            &[],
            &[],
            Some(low),
            Some((&endpoint(), &t)),
            &AskParams::default(),
            &mut |e| match e {
                AskEvent::Sources(s) => shown = s.len(),
                AskEvent::Text(t) => streamed.push_str(t),
            },
        ))
        .unwrap();
        assert_eq!(a.outcome, Outcome::Answered);
        assert_eq!(a.text, reply);
        assert_eq!(streamed, reply);
        assert_eq!(shown, a.sources.len());
        assert_eq!(a.sources[0].text, TEXTS[0], "best passage first");
        assert!(!a.sentences[0].low && a.sentences[0].cited == [1]);
        assert!(a.sentences[1].low, "cites a source that was not given");
        let body = &t.sent.borrow()[0].body;
        assert!(body.contains("Boats float on water") && body.contains("How do boats float?"));
    }

    #[test]
    fn the_model_abstaining_is_an_abstention_and_failures_come_back() {
        let c = corpus();
        let q = "Qual é o prazo do contrato?";
        let t = Scripted::new(vec![
            Ok(Reply::stream(&openai(Lang::Pt.abstention()), 3)),
            Ok(Reply::status(429, "")),
        ]);
        let e = endpoint();
        let a = run(ask(
            &c,
            q,
            &vector(q),
            &[],
            &[],
            None,
            Some((&e, &t)),
            &AskParams::default(),
            &mut |_| {},
        ))
        .unwrap();
        assert_eq!(a.outcome, Outcome::AbstainedByModel);
        assert_eq!(a.lang, Lang::Pt);
        let failed = run(ask(
            &c,
            q,
            &vector(q),
            &[],
            &[],
            None,
            Some((&e, &t)),
            &AskParams::default(),
            &mut |_| {},
        ));
        assert!(matches!(failed, Err(Failure::RateLimited { .. })));
    }

    #[test]
    fn a_translation_of_the_question_finds_the_passage_in_the_other_language() {
        let c = corpus();
        let q = "Por que os navios não afundam?";
        let translation = Translation {
            lang: Lang::En,
            text: "Why do boats float on water?".into(),
        };
        let ask_with = |translated: &[Translated]| match prepare(
            &c,
            q,
            &vector(q),
            translated,
            &[],
            None,
            false,
            &AskParams::default(),
        ) {
            Prepared::Done(a) => a,
            Prepared::Ask { .. } => unreachable!("not asking"),
        };
        assert!(ask_with(&[]).translations.is_empty());
        let translated = [Translated {
            vector: vector(&translation.text),
            translation: translation.clone(),
        }];
        let with = ask_with(&translated);
        assert_eq!(with.sources[0].text, TEXTS[0]);
        assert_eq!(with.translations, [translation], "kept with the answer");
        assert_eq!(with.lang, Lang::Pt, "answered in the question's language");
    }

    #[test]
    fn without_an_endpoint_the_best_sentences_are_the_answer() {
        let c = corpus();
        let q = "What do riders pedal?";
        let a = run(ask::<Scripted>(
            &c,
            q,
            &vector(q),
            &[],
            &[],
            None,
            None,
            &AskParams::default(),
            &mut |_| {},
        ))
        .unwrap();
        assert_eq!(a.outcome, Outcome::Extractive);
        let top = &a.sources[0];
        let x = a.extracts.iter().find(|x| x.n == top.n).unwrap();
        assert_eq!(top.text[x.span.clone()].trim(), "Riders pedal them.");
    }

    #[test]
    fn a_follow_up_carries_the_conversation() {
        let turns = [Turn {
            question: "How do boats float?".into(),
            answer: "On water [1].".into(),
        }];
        assert_eq!(
            retrieval_query(&turns, " And steel ones? "),
            "How do boats float? And steel ones?"
        );
        let c = corpus();
        let t = Scripted::new(vec![Ok(Reply::stream(&openai("Yes [1]."), 8))]);
        let q = retrieval_query(&turns, "And steel ones?");
        run(ask(
            &c,
            "And steel ones?",
            &vector(&q),
            &[],
            &turns,
            None,
            Some((&endpoint(), &t)),
            &AskParams::default(),
            &mut |_| {},
        ))
        .unwrap();
        let body: serde_json::Value = serde_json::from_str(&t.sent.borrow()[0].body).unwrap();
        let roles: Vec<&str> = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["role"].as_str().unwrap())
            .collect();
        assert_eq!(roles, ["system", "user", "assistant", "user"]);
    }

    #[test]
    fn calibration_uses_the_probes_against_the_library() {
        let c = corpus();
        // Probes pointing away from every passage, and a question that is a passage.
        let probes: Vec<Vec<f32>> = c
            .vectors()
            .iter()
            .map(|v| v.iter().map(|x| -x).collect())
            .collect();
        let t = calibrate(&c, &probes).unwrap();
        assert_eq!(t.probes, 3);
        let found: Vec<Evidence> = probes
            .iter()
            .map(|p| evidence(p, c.vectors()).unwrap())
            .collect();
        assert_eq!(Some(t), Threshold::calibrate(&found));
        let lowest = found.iter().min_by(|a, b| a.top.total_cmp(&b.top)).unwrap();
        assert!(t.abstains(lowest));
        assert!(!t.abstains(&evidence(&c.vectors()[0], c.vectors()).unwrap()));
    }
}
