//! Questions about the library itself ("how many documents are there?", "quais documentos
//! mencionam LGPD?"), answered from the library's own records: no retrieval, no LLM, nothing
//! sent. Retrieval would answer them from whichever passages look alike, and a model would
//! guess a count it cannot see (users of RAG servers report "how many records" answered 4 of
//! 102). A small rule set recognises them in English and Portuguese, on the whole question, so
//! a question about the documents' *content* ("which documents must the tenant provide?") is
//! never taken for one; the answer is typed, and the page or `fonte` words it.

use serde::{Deserialize, Serialize};

use crate::search::corpus::Corpus;
use crate::search::lang::Lang;
use crate::search::lexical::terms;
use crate::text::fold;
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

/// Words that name the documents, in either language (folded).
const DOCS: &[&str] = &[
    "documents",
    "document",
    "docs",
    "files",
    "file",
    "pdfs",
    "papers",
    "documentos",
    "documento",
    "arquivos",
    "arquivo",
];
/// Endings that keep a question about the library (folded, without the question mark).
const ABOUT_LIBRARY_EN: &[&str] = &[
    "",
    "are there",
    "do i have",
    "do we have",
    "do you have",
    "are in the library",
    "are in my library",
    "are in this library",
    "are in the collection",
    "does the library have",
    "does my library have",
    "does the library hold",
    "does the library contain",
    "have i added",
    "are stored",
];
const ABOUT_LIBRARY_PT: &[&str] = &[
    "",
    "ha",
    "existem",
    "tenho",
    "temos",
    "tenho na biblioteca",
    "temos na biblioteca",
    "ha na biblioteca",
    "existem na biblioteca",
    "tem na biblioteca",
    "estao na biblioteca",
    "na biblioteca",
    "na minha biblioteca",
    "a biblioteca tem",
    "eu adicionei",
];
/// What comes before a term in a question about mentions (folded).
const MENTION_VERBS: &[&str] = &[
    "mention",
    "mentions",
    "talk about",
    "refer to",
    "contain the word",
    "contain the term",
    "use the term",
    "mencionam",
    "mencionam o termo",
    "citam",
    "falam de",
    "falam sobre",
    "tratam de",
    "contem a palavra",
    "contem o termo",
    "usam o termo",
];

/// The question as the rules read it: folded, one space between words, no end punctuation.
fn normalise(question: &str) -> String {
    fold(question)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(['?', '.', '!', ' '])
        .to_string()
}

/// `s` without one of `prefixes` (whole words), if it starts with one.
fn after<'a>(s: &'a str, prefixes: &[&str]) -> Option<&'a str> {
    prefixes.iter().find_map(|p| {
        let rest = s.strip_prefix(p)?;
        if rest.is_empty() {
            Some(rest)
        } else {
            rest.strip_prefix(' ')
        }
    })
}

/// The question about the library `question` asks, if it is one.
pub fn recognise(question: &str) -> Option<LibraryQuestion> {
    let q = normalise(question);
    let ends_about_library =
        |rest: &str| ABOUT_LIBRARY_EN.contains(&rest) || ABOUT_LIBRARY_PT.contains(&rest);
    // "how many documents …", "quantos documentos …", "how many pages …", "quantas páginas …"
    if let Some(rest) = after(&q, &["how many", "quantos", "quantas"]) {
        let (noun, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        if let Some(term) = after(rest, MENTION_VERBS).filter(|t| !t.is_empty()) {
            if DOCS.contains(&noun) {
                return Some(LibraryQuestion::Mentions {
                    term: unquote(term),
                });
            }
        }
        if !ends_about_library(rest) {
            return None;
        }
        let what = match noun {
            n if DOCS.contains(&n) => Counted::Documents,
            "pages" | "paginas" => Counted::Pages,
            "passages" | "chunks" | "passagens" | "trechos" => Counted::Passages,
            _ => return None,
        };
        return Some(LibraryQuestion::Count(what));
    }
    // "which documents …", "quais documentos …", "list the documents", "liste os arquivos"
    let rest = after(
        &q,
        &[
            "which",
            "what",
            "quais sao os",
            "quais os",
            "quais",
            "que",
            "list all the",
            "list all",
            "list the",
            "list",
            "show me the",
            "show the",
            "liste todos os",
            "liste os",
            "liste",
            "mostre os",
            "mostre todos os",
        ],
    )?;
    let (noun, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    if !DOCS.contains(&noun) {
        return None;
    }
    if let Some(term) = after(rest, MENTION_VERBS).filter(|t| !t.is_empty()) {
        return Some(LibraryQuestion::Mentions {
            term: unquote(term),
        });
    }
    if ends_about_library(rest) {
        return Some(LibraryQuestion::List { lang: None });
    }
    let lang = after(
        rest,
        &["are in", "are written in", "estao em", "sao em", "em", "in"],
    )?;
    match lang {
        "english" | "ingles" => Some(LibraryQuestion::List {
            lang: Some(Lang::En),
        }),
        "portuguese" | "portugues" => Some(LibraryQuestion::List {
            lang: Some(Lang::Pt),
        }),
        _ => None,
    }
}

/// A term without the quotes it may have been typed in.
fn unquote(term: &str) -> String {
    term.trim_matches(|c: char| "\"'“”‘’«»".contains(c))
        .to_string()
}

/// The answer to `question` from `corpus`'s records.
pub fn answer(question: &LibraryQuestion, corpus: &Corpus) -> LibraryAnswer {
    let docs = corpus.documents();
    let listed = |i: usize, mentions: Option<usize>| Listed {
        id: docs[i].id.clone(),
        name: docs[i].name.clone(),
        pages: docs[i].pages,
        mentions,
    };
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
