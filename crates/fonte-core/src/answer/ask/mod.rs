//! Asking a library, one pipeline for the page and `fonte ask` ([`pipeline`]): the question's
//! vector decides abstention before anything is sent ([`crate::answer::abstain`]); only a question that
//! passes is translated into the library's other language ([`crate::answer::translate`]); then the
//! evidence is retrieved in every wording, the evidence-only prompt built ([`crate::answer::prompt`]),
//! the model's answer streamed ([`crate::answer::llm`]) and its citations checked ([`crate::answer::cite`]).
//! With no endpoint, the answer is *extractive*: the best passages with their sentences that
//! best match the question, cited the same way. The pure steps are in [`steps`].

#[cfg(test)]
mod fixture;
mod pipeline;
mod steps;
#[cfg(test)]
mod tests;

pub use pipeline::{
    ask, here_translations, prepare_question, reply, translations, AskError, AskServices, Asked,
    Translations,
};
pub use steps::{calibrate, extracts, finish, judge, prepare, retrieval_query, sources, Prepared};

use serde::{Deserialize, Serialize};

use crate::answer::abstain::{Evidence, Threshold};
use crate::answer::cite::Sentence;
use crate::answer::llm::Failure;
use crate::answer::prompt::{Lang, Source, Turn};
use crate::answer::translate::Translation;

/// How to ask.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AskParams {
    /// Characters of passages the prompt may carry.
    pub budget_chars: usize,
    /// Passages retrieved before the budget is applied.
    pub depth: usize,
    /// The interface language, for a question that does not show its own.
    pub fallback: Lang,
    /// Whether superseded versions are searched too (else only each group's current one).
    pub all_versions: bool,
}

impl Default for AskParams {
    fn default() -> Self {
        Self {
            budget_chars: 4000,
            depth: crate::search::retrieve::DEPTH,
            fallback: Lang::En,
            all_versions: false,
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
    /// A question about the library itself, answered from its records: nothing searched,
    /// nothing sent ([`crate::answer::library`]).
    Library,
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
    /// The translations of the question searched with it ([`crate::answer::translate`]).
    #[serde(default)]
    pub translations: Vec<Translation>,
    /// A question about the library: its answer from the library's records.
    #[serde(default)]
    pub library: Option<crate::answer::library::LibraryAnswer>,
    /// Whether superseded versions were searched too ([`AskParams::all_versions`]): then a
    /// citation of one is valid.
    #[serde(default)]
    pub all_versions: bool,
    /// Sources it rests on that say different things on one point ([`crate::answer::conflict`]).
    #[serde(default)]
    pub conflicts: Vec<crate::answer::conflict::Conflict>,
}

impl Answer {
    /// Its text as text and checked citations ([`crate::answer::cite::pieces`]).
    pub fn pieces(&self) -> Vec<crate::answer::cite::Piece> {
        crate::answer::cite::pieces(&self.text, &self.sources, self.all_versions)
    }
}

/// One question as the person asked it, and how to answer it.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The question as typed.
    pub question: &'a str,
    /// The earlier turns of the conversation a follow-up carries.
    pub turns: &'a [Turn],
    /// Budget, depth, fallback language.
    pub params: AskParams,
    /// Whether, and by what, a question that passes abstention is also searched in its
    /// translation into the library's other language.
    pub translate: TranslateWith,
}

/// What translates a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TranslateWith {
    /// Nothing: the question is searched as asked.
    Off,
    /// The endpoint the answer goes to (one more request to it), when there is one.
    Endpoint,
    /// The translation models on this machine ([`crate::answer::translate::local`]): nothing
    /// is sent.
    Here,
}

/// What the front end learns while an answer is made, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum AskEvent<'a> {
    /// The question passed abstention and is being translated into this language (one request
    /// to the endpoint).
    Translating(Lang),
    /// The question's translation, searched with it.
    Translated(&'a Translation),
    /// A translation could not be used (the question is still searched as asked): the
    /// endpoint's failure, or `None` when its reply was not a usable translation.
    TranslationSkipped(Lang, Option<&'a Failure>),
    /// The passages holding the question's words, found while the query model loads: shown
    /// until the evidence replaces them ([`AskEvent::Sources`]).
    WordMatches(&'a [Source]),
    /// The evidence is being retrieved.
    Retrieving,
    /// The sources chosen (before the answer's request).
    Sources(&'a [Source]),
    /// The model is reading the prompt (where it says how far: llama.cpp, the page's own
    /// model).
    Reading {
        /// Tokens read.
        processed: u32,
        /// Tokens in the prompt.
        total: u32,
    },
    /// More of the model's text.
    Text(&'a str),
}
