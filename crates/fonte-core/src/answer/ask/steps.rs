//! The pure steps of asking, each on a borrowed corpus: the retrieval query, the library's
//! threshold, the sources within the budget, the extractive answer, the prompt, and the answer
//! once the model replied.

use std::collections::HashSet;

use crate::answer::abstain::{evidence, Evidence, Threshold};
use crate::answer::cite::{passage_sentences, sentences};
use crate::answer::conflict::conflicts;
use crate::answer::prompt::{build, is_abstention, Lang, Prompt, Source, Turn};
use crate::answer::translate::Translated;
use crate::search::corpus::Corpus;
use crate::search::lexical::terms;
use crate::search::retrieve::{Search, Wording};

use super::{Answer, AskParams, Extract, Outcome, Request};

/// The text retrieval searches with: a follow-up carries the previous question, so "and in
/// Portuguese?" finds what the conversation is about (no extra LLM call).
pub fn retrieval_query(turns: &[Turn], question: &str) -> String {
    match turns.last() {
        Some(t) => format!("{} {}", t.question.trim(), question.trim()),
        None => question.trim().to_string(),
    }
}

/// The library's threshold, from the probes' query vectors ([`crate::answer::abstain::PROBES`],
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
    vector: Option<&[f32]>,
    translated: &[Translated],
    params: &AskParams,
) -> Vec<Source> {
    let also: Vec<Wording<'_>> = translated.iter().map(Translated::wording).collect();
    let hits = corpus.search(
        &Search::new(query, vector)
            .also(&also)
            .depth(params.depth)
            .all_versions(params.all_versions),
    );
    let notes = corpus.version_notes();
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
                version: notes[c.doc as usize].clone(),
            }
        })
        .collect()
}

/// The sentence of each source sharing most content words with the question.
pub fn extracts(question: &str, sources: &[Source]) -> Vec<Extract> {
    let wanted: HashSet<String> = terms(question).into_iter().collect();
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
        prompt: Prompt,
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

/// The best evidence of `vector` against the library, with its threshold, when both are known.
pub fn judge(
    corpus: &Corpus,
    vector: &[f32],
    threshold: Option<Threshold>,
) -> Option<(Evidence, Threshold)> {
    Some((evidence(vector, corpus.vectors())?, threshold?))
}

/// Everything before the answer's request, with `corpus` borrowed only here: retrieval, the
/// abstention decision, the prompt. `vector` is the query vector of [`retrieval_query`],
/// `translated` its translations ([`crate::answer::translate`]: none for a question that abstains on
/// its own, see [`super::prepare_question`]), `threshold` the library's ([`calibrate`]);
/// with `asking` false (no endpoint) the answer is extractive.
pub fn prepare(
    corpus: &Corpus,
    request: &Request<'_>,
    vector: &[f32],
    translated: &[Translated],
    threshold: Option<Threshold>,
    asking: bool,
) -> Prepared {
    let (question, turns, params) = (request.question, request.turns, &request.params);
    let query = retrieval_query(turns, question);
    let found = sources(corpus, &query, Some(vector), translated, params);
    let lang = Lang::of(question, params.fallback);
    // The best evidence of any wording: a translation is searched only for a question that
    // passed on its own, so this is never weaker than the question's.
    let judged = std::iter::once(vector)
        .chain(translated.iter().map(|t| t.vector.as_slice()))
        .filter_map(|v| judge(corpus, v, threshold))
        .max_by(|a, b| a.0.top.total_cmp(&b.0.top));
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
        library: None,
        all_versions: params.all_versions,
        conflicts: Vec::new(),
    };
    let weak = found.is_empty() || judged.is_some_and(|(e, t)| t.abstains(&e));
    if weak || !asking {
        // Abstaining, the nearest passages are still shown, as what was found.
        if weak {
            answer.outcome = Outcome::AbstainedBeforeAsking;
        }
        answer.extracts = extracts(question, &found);
        if !weak {
            answer.conflicts = conflicts(&found, &[]);
        }
        answer.sources = found;
        return Prepared::Done(answer);
    }
    let prompt = build(question, turns, found, params.budget_chars, params.fallback);
    Prepared::Ask { answer, prompt }
}

/// The answer once the model replied `text` to `prompt`: an abstention when it said the
/// abstention sentence, else its sentences with their citations checked.
pub fn finish(mut answer: Answer, prompt: Prompt, text: String) -> Answer {
    let texts: Vec<&str> = prompt.sources.iter().map(|s| s.text.as_str()).collect();
    answer.outcome = if is_abstention(&text) {
        Outcome::AbstainedByModel
    } else {
        Outcome::Answered
    };
    answer.sentences = sentences(&text, &texts);
    if answer.outcome == Outcome::Answered {
        // The sources the answer rests on: those it cites or that Fonte matched to a sentence.
        let mut used: Vec<u32> = answer
            .sentences
            .iter()
            .flat_map(|s| s.cited.iter().copied().chain(s.matched))
            .collect();
        used.sort_unstable();
        used.dedup();
        answer.conflicts = conflicts(&prompt.sources, &used);
    }
    answer.text = text;
    answer.sources = prompt.sources;
    answer
}
