//! Citations in an answer: `[n]`, `[n, m]`, `[n-m]` (also `[source n]`, `[fonte n]`) parsed,
//! checked against the sources the prompt gave, and each sentence scored for how well its
//! cited passages support its words.

use std::collections::HashSet;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::answer::prompt::Source;
use crate::search::lexical::terms;

/// Numbers one citation may name: `[1-1000000]` is not a citation a reader could follow.
const MAX_NUMBERS: u32 = 20;

/// A citation marker in the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Citation {
    /// Byte range of the marker (brackets included) in the answer.
    pub span: Range<usize>,
    /// The source numbers it names, in order, without repeats.
    pub numbers: Vec<u32>,
}

/// The numbers inside one pair of brackets, or `None` if it is not a citation.
fn numbers_in(inner: &str) -> Option<Vec<u32>> {
    let lower = inner.trim().to_lowercase();
    let body = ["sources", "source", "fontes", "fonte"]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .unwrap_or(&lower)
        .trim();
    if body.is_empty() {
        return None;
    }
    let mut numbers: Vec<u32> = Vec::new();
    for part in body.split([',', ';']) {
        let part = part.trim();
        let range = part.split_once(['-', '–']);
        let (from, to) = match range {
            Some((a, b)) => (a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?),
            None => {
                let n = part.parse::<u32>().ok()?;
                (n, n)
            }
        };
        if from > to || to - from >= MAX_NUMBERS {
            return None;
        }
        for n in from..=to {
            if !numbers.contains(&n) {
                numbers.push(n);
            }
        }
        if numbers.len() as u32 > MAX_NUMBERS {
            return None;
        }
    }
    Some(numbers)
}

/// Every citation marker in `answer`, in order. Brackets holding anything else (`[a]`,
/// `[1.5]`, `[]`) are text.
pub fn parse(answer: &str) -> Vec<Citation> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(open) = answer[at..].find('[').map(|i| at + i) {
        let Some(close) = answer[open + 1..].find([']', '[']).map(|i| open + 1 + i) else {
            break;
        };
        if answer[close..].starts_with('[') {
            at = close;
            continue;
        }
        if let Some(numbers) = numbers_in(&answer[open + 1..close]) {
            out.push(Citation {
                span: open..close + 1,
                numbers,
            });
        }
        at = close + 1;
    }
    out
}

/// One cited source number, and whether the prompt had such a source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cited {
    /// The number.
    pub n: u32,
    /// Whether it names one of the sources given (1..=sources); an invalid one is shown as an
    /// unsupported citation, never as a link.
    pub valid: bool,
}

/// A piece of an answer, for display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Piece {
    /// Text, shown as text.
    Text(String),
    /// A citation marker.
    Cite(Vec<Cited>),
}

/// `answer` as text and citations, each number checked against `sources` (those given):
/// a number outside them is invalid, and so is an older version's passage unless
/// `all_versions` were searched (it was never evidence by default; a citation of it is struck
/// out like a wrong number). Concatenating the texts and markers gives the answer back.
pub fn pieces(answer: &str, sources: &[Source], all_versions: bool) -> Vec<Piece> {
    let valid = |n: u32| {
        n >= 1
            && sources.get(n as usize - 1).is_some_and(|s| {
                all_versions || !s.version.as_ref().is_some_and(|v| v.is_superseded())
            })
    };
    let mut out = Vec::new();
    let mut at = 0;
    for c in parse(answer) {
        if c.span.start > at {
            out.push(Piece::Text(answer[at..c.span.start].to_string()));
        }
        let cited = c
            .numbers
            .iter()
            .map(|&n| Cited { n, valid: valid(n) })
            .collect();
        out.push(Piece::Cite(cited));
        at = c.span.end;
    }
    if at < answer.len() {
        out.push(Piece::Text(answer[at..].to_string()));
    }
    out
}

/// A sentence of the answer and how well its sources support it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sentence {
    /// Byte range in the answer, its citations included.
    pub span: Range<usize>,
    /// Valid source numbers it cites.
    pub cited: Vec<u32>,
    /// Share of its content words (stop words and citation markers aside) found in its cited
    /// passages: 1 when it has none to check.
    pub support: f32,
    /// No valid citation, or under half its words supported: shown with a low-support mark.
    pub low: bool,
    /// For a sentence the model left uncited: the source holding most of its content words,
    /// when that is at least [`MIN_SUPPORT`] of them (then `support` is that share and `low`
    /// is false). Shown as found by Fonte, apart from the model's own citations: small local
    /// models often answer from the sources without writing the markers.
    #[serde(default)]
    pub matched: Option<u32>,
}

/// Below this share of a sentence's words found in what it cites, it is marked as poorly
/// supported. Half is not fitted to any corpus: a sentence most of whose content words
/// appear in none of its cited passages says something they do not.
pub const MIN_SUPPORT: f32 = 0.5;

/// Byte ranges of the sentences of `answer`: a sentence ends at `.`, `!`, `?` followed by
/// space (so "3.1" does not end one), or at a line break when `lines` (an answer's list items;
/// else only at a blank line: a page's lines wrap sentences), and takes the citation markers
/// and spaces that follow its end ("... holes. [1]").
fn sentence_spans(answer: &str, citations: &[Citation], lines: bool) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut start = 0;
    let bytes = answer.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let ends = (c == b'\n' && (lines || bytes.get(i + 1) == Some(&b'\n')))
            || (matches!(c, b'.' | b'!' | b'?')
                && bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace()));
        if !ends {
            i += 1;
            continue;
        }
        let mut end = i + 1;
        // Citations and spaces after the end belong to this sentence.
        loop {
            let rest = &answer[end..];
            let trimmed = rest.trim_start_matches([' ', '\t']);
            let skip = rest.len() - trimmed.len();
            match citations.iter().find(|c| c.span.start == end + skip) {
                Some(c) => end = c.span.end,
                None => break,
            }
        }
        if !answer[start..end].trim().is_empty() {
            spans.push(start..end);
        }
        start = end;
        i = end.max(i + 1);
    }
    if !answer[start..].trim().is_empty() {
        spans.push(start..answer.len());
    }
    spans
}

/// Byte ranges of the sentences of a passage (its lines wrap sentences; a blank line ends
/// one).
pub fn passage_sentences(text: &str) -> Vec<Range<usize>> {
    sentence_spans(text, &[], false)
}

/// Each sentence of `answer` with its support, given the text of source `n` at
/// `sources[n - 1]`.
pub fn sentences(answer: &str, sources: &[&str]) -> Vec<Sentence> {
    let citations = parse(answer);
    sentence_spans(answer, &citations, true)
        .into_iter()
        .map(|span| {
            let inside: Vec<&Citation> = citations
                .iter()
                .filter(|c| c.span.start >= span.start && c.span.end <= span.end)
                .collect();
            let mut cited: Vec<u32> = Vec::new();
            for n in inside.iter().flat_map(|c| c.numbers.iter().copied()) {
                if n >= 1 && n as usize <= sources.len() && !cited.contains(&n) {
                    cited.push(n);
                }
            }
            // The sentence's words without its markers.
            let mut text = String::new();
            let mut at = span.start;
            for c in &inside {
                text.push_str(&answer[at..c.span.start]);
                at = c.span.end;
            }
            text.push_str(&answer[at..span.end]);
            let words = terms(&text);
            let share = |numbers: &[u32]| {
                let known: HashSet<String> = numbers
                    .iter()
                    .flat_map(|&n| terms(sources[n as usize - 1]))
                    .collect();
                let found = words.iter().filter(|w| known.contains(*w)).count();
                found as f32 / words.len() as f32
            };
            if words.is_empty() || sources.is_empty() {
                let low = cited.is_empty();
                return Sentence {
                    span,
                    cited,
                    support: 1.0,
                    low,
                    matched: None,
                };
            }
            if inside.is_empty() {
                // No marker at all (an invalid one stays unsupported): the best source, the
                // first of equals (sources come in rank order).
                let best = (1..=sources.len() as u32).map(|n| (n, share(&[n]))).fold(
                    None,
                    |best: Option<(u32, f32)>, (n, s)| match best {
                        Some((_, b)) if b >= s => best,
                        _ => Some((n, s)),
                    },
                );
                return match best {
                    Some((n, support)) if support >= MIN_SUPPORT => Sentence {
                        span,
                        cited,
                        support,
                        low: false,
                        matched: Some(n),
                    },
                    _ => Sentence {
                        span,
                        cited,
                        support: best.map_or(0.0, |(_, s)| s),
                        low: true,
                        matched: None,
                    },
                };
            }
            let support = if cited.is_empty() { 0.0 } else { share(&cited) };
            Sentence {
                span,
                cited,
                support,
                low: support < MIN_SUPPORT,
                matched: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(answer: &str) -> Vec<Vec<u32>> {
        parse(answer).into_iter().map(|c| c.numbers).collect()
    }

    #[test]
    fn markers_single_lists_ranges_and_words() {
        assert_eq!(
            numbers("A [1]. B [2, 3]. C [4-6]. D [source 7]. E [Fontes 8; 9]. F [2–3]"),
            [
                vec![1],
                vec![2, 3],
                vec![4, 5, 6],
                vec![7],
                vec![8, 9],
                vec![2, 3]
            ]
        );
        assert_eq!(numbers("x [1][2]"), [vec![1], vec![2]]);
        assert_eq!(numbers("[1, 1, 2]"), [vec![1, 2]], "no repeats");
    }

    #[test]
    fn brackets_that_are_not_citations_stay_text() {
        for text in ["[a]", "[]", "[1.5]", "[3-1]", "[1-1000000]", "x[", "[[1]"] {
            let found = parse(text);
            assert!(found.iter().all(|c| c.numbers == [1]), "{text}: {found:?}");
        }
        assert_eq!(parse("[[1]")[0].span, 1..4, "the inner pair is the marker");
    }

    #[test]
    fn pieces_rebuild_the_answer_and_flag_numbers_not_given() {
        let answer = "R is a language [1]. It has lm() [2, 7].";
        let given = |n: usize| -> Vec<Source> {
            (1..=n as u32)
                .map(|i| Source {
                    n: i,
                    doc_id: "d".into(),
                    doc: "d".into(),
                    page: 1,
                    char_start: 0,
                    char_end: 1,
                    text: "x".into(),
                    version: None,
                })
                .collect()
        };
        let ps = pieces(answer, &given(2), false);
        assert_eq!(
            ps[3],
            Piece::Cite(vec![
                Cited { n: 2, valid: true },
                Cited { n: 7, valid: false }
            ])
        );
        let rebuilt: String = ps
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Cite(_) => "#".into(),
            })
            .collect();
        assert_eq!(rebuilt, "R is a language #. It has lm() #.");
        assert!(matches!(pieces("[0]", &given(3), false)[0], Piece::Cite(ref c) if !c[0].valid));
        // An older version's passage: struck out unless all versions were searched.
        let mut sources = given(2);
        let day = |year| crate::pdf::dates::PubDate {
            year,
            month: None,
            day: None,
        };
        sources[1].version = Some(crate::search::corpus::VersionNote::Superseded {
            date: day(2023),
            by: day(2025),
        });
        let cited = |all| match &pieces("x [1, 2].", &sources, all)[1] {
            Piece::Cite(c) => c.iter().map(|c| c.valid).collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(cited(false), [true, false]);
        assert_eq!(cited(true), [true, true]);
    }

    #[test]
    fn sentences_keep_their_trailing_citations_and_decimals() {
        let answer = "Version 3.1 adds clauses. [1] It ends in May [2].\nUncited line";
        let s = sentences(answer, &["version 3.1 adds clauses", "it ends in may"]);
        let texts: Vec<&str> = s.iter().map(|s| answer[s.span.clone()].trim()).collect();
        assert_eq!(
            texts,
            [
                "Version 3.1 adds clauses. [1]",
                "It ends in May [2].",
                "Uncited line"
            ]
        );
        assert_eq!(s[0].cited, [1]);
        assert!(!s[0].low && !s[1].low);
        assert!(s[2].low, "no citation");
        let passage = "A sentence wrapped\nover two lines. Another.\n\nA new paragraph";
        let spans: Vec<&str> = passage_sentences(passage)
            .into_iter()
            .map(|r| passage[r].trim())
            .collect();
        assert_eq!(
            spans,
            [
                "A sentence wrapped\nover two lines.",
                "Another.",
                "A new paragraph"
            ]
        );
    }

    #[test]
    fn support_is_the_share_of_words_found_in_what_is_cited() {
        let sources = ["The contract ends in May 2025 with a penalty clause."];
        let s = sentences("The contract ends in May 2025 [1].", &sources);
        assert_eq!(s[0].support, 1.0);
        let s = sentences("Payment is due weekly in bitcoin [1].", &sources);
        assert!(s[0].support < MIN_SUPPORT && s[0].low, "{:?}", s[0]);
        // Citing a source that does not exist supports nothing.
        let s = sentences("The contract ends in May [4].", &sources);
        assert!(s[0].cited.is_empty() && s[0].low);
        // Accents and case do not matter: the words are folded.
        let s = sentences(
            "A rescisão ocorre em maio [1].",
            &["RESCISAO ocorre em Maio."],
        );
        assert_eq!(s[0].support, 1.0);
    }

    #[test]
    fn an_uncited_sentence_is_matched_to_the_source_holding_its_words() {
        let sources = [
            "Boats float on water.",
            "The test password is asdfzxcv, set in 2019.",
            "The password is asdfzxcv.",
        ];
        let s = sentences(
            "The password is asdfzxcv. Bicycles have wheels. Boats float [1].",
            &sources,
        );
        assert_eq!(
            (s[0].matched, s[0].low, s[0].support),
            (Some(2), false, 1.0),
            "first of equals"
        );
        assert_eq!((s[1].matched, s[1].low), (None, true), "in no source");
        assert_eq!(
            (s[2].matched, s[2].cited.clone()),
            (None, vec![1]),
            "the model's own"
        );
        // An invalid marker is the model's error: not matched over.
        let s = sentences("The password is asdfzxcv [9].", &sources);
        assert_eq!((s[0].matched, s[0].low), (None, true));
    }
}
