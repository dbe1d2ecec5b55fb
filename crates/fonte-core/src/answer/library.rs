//! Questions about the library itself ("how many documents are there?", "quais documentos
//! mencionam LGPD?"), answered from the library's own records: no retrieval, no LLM, nothing
//! sent. Retrieval would answer them from whichever passages look alike, and a model would
//! guess a count it cannot see (users of RAG servers report "how many records" answered 4 of
//! 102). A small rule set recognises them in English and Portuguese, on the whole question, so
//! a question about the documents' *content* ("which documents must the tenant provide?") is
//! never taken for one; the answer is typed, and the page or `fonte` words it.

use serde::{Deserialize, Serialize};

use crate::pdf::dates::PubDate;
use crate::search::corpus::Corpus;
use crate::search::lang::Lang;
use crate::search::lexical::terms;
use crate::DocId;

/// What is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Counted {
    /// Documents.
    Documents,
    /// Pages, all documents together.
    Pages,
    /// Passages (chunks).
    Passages,
}

/// A question about the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LibraryQuestion {
    /// How many documents, pages or passages.
    Count(Counted),
    /// Which documents there are, all or in one language.
    List {
        /// Only those in this language.
        lang: Option<Lang>,
    },
    /// Which documents mention a term (with how often), or how many do.
    Mentions {
        /// The term, as typed.
        term: String,
    },
    /// The newest (or the oldest) document by publication date.
    Dated {
        /// The newest, else the oldest.
        newest: bool,
    },
    /// The documents published in a year.
    FromYear(u16),
    /// The document added last.
    LastAdded,
}

/// One document of an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Listed {
    /// Its id.
    pub id: DocId,
    /// Its file name.
    pub name: String,
    /// Its pages.
    pub pages: u32,
    /// How often it mentions the term ([`LibraryQuestion::Mentions`]).
    pub mentions: Option<usize>,
    /// Its publication date, if known.
    #[serde(default)]
    pub published: Option<PubDate>,
    /// When it was added (milliseconds since 1970), if recorded.
    #[serde(default)]
    pub added: Option<u64>,
}

/// The answer, from the library's records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LibraryAnswer {
    /// A count.
    Count {
        /// What.
        what: Counted,
        /// How many.
        n: usize,
    },
    /// Documents (most mentions first for a term; else in library order).
    Documents(Vec<Listed>),
}

mod recognise;

pub use recognise::recognise;

/// The answer to `question` from `corpus`'s records.
pub fn answer(question: &LibraryQuestion, corpus: &Corpus) -> LibraryAnswer {
    let docs = corpus.documents();
    let listed = |i: usize, mentions: Option<usize>| Listed {
        id: docs[i].id.clone(),
        name: docs[i].name.clone(),
        pages: docs[i].pages,
        mentions,
        published: docs[i].about.published.map(|p| p.date),
        added: docs[i].about.added,
    };
    let date = |i: usize| docs[i].about.published.map(|p| p.date);
    match question {
        LibraryQuestion::Count(what) => LibraryAnswer::Count {
            what: *what,
            n: match what {
                Counted::Documents => docs.len(),
                Counted::Pages => docs.iter().map(|d| d.pages as usize).sum(),
                Counted::Passages => corpus.chunks().len(),
            },
        },
        LibraryQuestion::List { lang } => LibraryAnswer::Documents(
            (0..docs.len())
                .filter(|&i| lang.is_none() || document_language(corpus, i) == *lang)
                .map(|i| listed(i, None))
                .collect(),
        ),
        LibraryQuestion::Mentions { term } => {
            let term = terms(term);
            let mut counts = vec![0usize; docs.len()];
            if !term.is_empty() {
                for c in corpus.chunks() {
                    let words = terms(&c.chunk.text);
                    counts[c.doc as usize] +=
                        words.windows(term.len()).filter(|w| *w == term).count();
                }
            }
            let mut found: Vec<Listed> = (0..docs.len())
                .filter(|&i| counts[i] > 0)
                .map(|i| listed(i, Some(counts[i])))
                .collect();
            found.sort_by_key(|l| std::cmp::Reverse(l.mentions));
            LibraryAnswer::Documents(found)
        }
        // Documents of no known date are left out; equal dates are all listed.
        LibraryQuestion::Dated { newest } => {
            let dated = (0..docs.len()).filter_map(|i| Some((date(i)?, i)));
            let best = if *newest {
                dated.clone().map(|(d, _)| d).max()
            } else {
                dated.clone().map(|(d, _)| d).min()
            };
            LibraryAnswer::Documents(
                dated
                    .filter(|(d, _)| Some(*d) == best)
                    .map(|(_, i)| listed(i, None))
                    .collect(),
            )
        }
        LibraryQuestion::FromYear(year) => LibraryAnswer::Documents(
            (0..docs.len())
                .filter(|&i| date(i).is_some_and(|d| d.year == *year))
                .map(|i| listed(i, None))
                .collect(),
        ),
        LibraryQuestion::LastAdded => {
            let last = docs.iter().filter_map(|d| d.about.added).max();
            LibraryAnswer::Documents(
                (0..docs.len())
                    .filter(|&i| last.is_some() && docs[i].about.added == last)
                    .map(|i| listed(i, None))
                    .collect(),
            )
        }
    }
}

/// The language most of a document's passages are in.
fn document_language(corpus: &Corpus, doc: usize) -> Option<Lang> {
    let (mut en, mut pt) = (0, 0);
    for c in corpus.chunks().iter().filter(|c| c.doc as usize == doc) {
        match Lang::detect(&c.chunk.text) {
            Some(Lang::En) => en += 1,
            Some(Lang::Pt) => pt += 1,
            None => {}
        }
    }
    match (en, pt) {
        (0, 0) => None,
        (en, pt) if en >= pt => Some(Lang::En),
        _ => Some(Lang::Pt),
    }
}

#[cfg(test)]
mod tests;
