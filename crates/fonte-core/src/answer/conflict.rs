//! Sources that disagree: two passages of different documents (or of versions whose order
//! cannot be told) that say the same thing with different numbers or dates, or one of them
//! negated. An answer built on either would silently pick one; the page shows both instead.
//!
//! The heuristic, on the sentences of the sources an answer rests on: two sentences, one from
//! each of two documents, are *about the same point* when their content words (numbers aside)
//! mostly agree (Jaccard ≥ [`SAME_POINT`], at least [`MIN_SHARED`] words in common); they
//! *disagree* when the numbers written in them (digits: amounts, percentages, years, ISO
//! dates; not paths, addresses or a heading's section number) differ, or when only one of them
//! is negated; sentences in two languages are not compared. It catches a changed fee, a deadline
//! moved, a rule turned into its opposite; it does not catch numbers written as words ("ten"
//! against "eleven"), the same point worded differently (below the overlap), or a disagreement
//! spread over two sentences.

use std::collections::HashSet;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::answer::cite::passage_sentences;
use crate::answer::prompt::Source;
use crate::search::corpus::VersionNote;
use crate::search::lang::Lang;
use crate::search::lexical::terms;
use crate::text::words;

/// Share of content words two sentences must have in common to be about the same point.
pub const SAME_POINT: f32 = 0.5;
/// Content words they must share at least.
pub const MIN_SHARED: usize = 4;
/// Words that negate a sentence (folded), per language: Portuguese "no" is "in the".
const NEGATIONS_EN: &[&str] = &["not", "no", "never", "nor", "cannot", "none"];
const NEGATIONS_PT: &[&str] = &["nao", "nunca", "nem", "jamais", "nenhum", "nenhuma"];

/// One side of a disagreement: a sentence of a source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// The source's number.
    pub n: u32,
    /// The sentence, a byte range of the source's text.
    pub span: Range<usize>,
    /// The numbers it writes that the other does not.
    pub values: Vec<String>,
    /// Whether it is negated (and the other not).
    pub negated: bool,
}

/// Two sources that say different things on the same point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflict {
    /// The first source's sentence (the better ranked).
    pub first: Side,
    /// The other's.
    pub second: Side,
}

/// The numbers written in a sentence: tokens holding a digit, without the punctuation around
/// them ("450", "3%", "2025-02-10", "1.5"). Not values: a path or an address ("/usr/lib64",
/// "https://…/v2"), and the section number a heading starts with ("3.2.1 Installing …").
fn numbers(text: &str) -> Vec<String> {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || "()[]{};\"“”'‘’".contains(c))
        .filter(|t| !t.is_empty())
        .collect();
    let section = |t: &str| {
        t.chars().all(|c| c.is_ascii_digit() || c == '.')
            && t.contains(|c: char| c.is_ascii_digit())
    };
    tokens
        .iter()
        .enumerate()
        .filter(|(i, t)| !(*i == 0 && section(t) && tokens.len() > 1))
        .filter(|(_, t)| !t.contains('/') && !t.contains('@'))
        .map(|(_, t)| t.trim_matches(|c: char| !c.is_alphanumeric() && c != '%'))
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

struct Said {
    n: u32,
    doc: usize,
    span: Range<usize>,
    content: HashSet<String>,
    numbers: Vec<String>,
    negated: bool,
    lang: Option<Lang>,
}

/// Whether two sources' documents can disagree: different documents, unless one supersedes
/// the other (then the older one is history, not a conflict, and only searched on request).
fn may_disagree(a: &Source, b: &Source) -> bool {
    if a.doc_id == b.doc_id {
        return false;
    }
    let current = |s: &Source| matches!(s.version, Some(VersionNote::Current { .. }));
    let older = |s: &Source| matches!(s.version, Some(VersionNote::Superseded { .. }));
    !((current(a) && older(b)) || (older(a) && current(b)))
}

/// The disagreements among `sources` (those numbered in `among`, or all when it is empty), in
/// rank order, at most one per pair of sources.
pub fn conflicts(sources: &[Source], among: &[u32]) -> Vec<Conflict> {
    let doc_ids: Vec<&str> = sources.iter().map(|s| s.doc_id.as_str()).collect();
    let said: Vec<Said> = sources
        .iter()
        .filter(|s| among.is_empty() || among.contains(&s.n))
        .flat_map(|s| {
            let doc = doc_ids
                .iter()
                .position(|d| *d == s.doc_id.as_str())
                .unwrap_or(0);
            passage_sentences(&s.text).into_iter().map(move |span| {
                let text = &s.text[span.clone()];
                let lang = Lang::detect(text);
                let negations: &[&str] = match lang {
                    Some(Lang::En) => NEGATIONS_EN,
                    Some(Lang::Pt) => NEGATIONS_PT,
                    // Unknown: the words that negate in either language and mean nothing else.
                    None => &["not", "never", "cannot", "nao", "nunca", "jamais"],
                };
                Said {
                    n: s.n,
                    doc,
                    content: terms(text)
                        .into_iter()
                        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
                        .collect(),
                    numbers: numbers(text),
                    negated: words(text).iter().any(|w| negations.contains(&w.as_str())),
                    lang,
                    span,
                }
            })
        })
        .collect();
    let source = |n: u32| {
        sources
            .iter()
            .find(|s| s.n == n)
            .expect("a source of the list")
    };
    let mut out: Vec<Conflict> = Vec::new();
    for (i, a) in said.iter().enumerate() {
        for b in &said[i + 1..] {
            if a.doc == b.doc || !may_disagree(source(a.n), source(b.n)) {
                continue;
            }
            // A translation shares its names, not its words: sentences in two languages are
            // not compared.
            if matches!((a.lang, b.lang), (Some(x), Some(y)) if x != y) {
                continue;
            }
            if out.iter().any(|c| (c.first.n, c.second.n) == (a.n, b.n)) {
                continue;
            }
            let shared = a.content.intersection(&b.content).count();
            let union = a.content.len() + b.content.len() - shared;
            if shared < MIN_SHARED || (shared as f32) < SAME_POINT * union as f32 {
                continue;
            }
            let only = |x: &Said, y: &Said| -> Vec<String> {
                x.numbers
                    .iter()
                    .filter(|v| !y.numbers.contains(v))
                    .cloned()
                    .collect()
            };
            let (va, vb) = (only(a, b), only(b, a));
            let numbers_differ = !va.is_empty() && !vb.is_empty();
            let negation_differs = a.negated != b.negated;
            if !numbers_differ && !negation_differs {
                continue;
            }
            let side = |s: &Said, values: Vec<String>, other: &Said| Side {
                n: s.n,
                span: s.span.clone(),
                values: if numbers_differ { values } else { Vec::new() },
                negated: negation_differs && s.negated && !other.negated,
            };
            out.push(Conflict {
                first: side(a, va, b),
                second: side(b, vb, a),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
