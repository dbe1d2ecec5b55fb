//! Recognising a question about the library: rules on the whole question, in English and
//! Portuguese, so a question about the documents' *content* that shares their words ("which
//! documents must the tenant provide?") is never taken for one.

use super::{Counted, LibraryQuestion};
use crate::search::lang::Lang;
use crate::text::fold;

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
    if let Some(dated) = by_date(&q) {
        return Some(dated);
    }
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

/// One document, in either language (folded).
const DOC: &[&str] = &["document", "file", "pdf", "paper", "documento", "arquivo"];
/// The newest and the oldest, as a phrase goes.
const NEWEST_EN: &[&str] = &["newest", "latest", "most recent"];
const OLDEST_EN: &[&str] = &["oldest", "earliest"];
const NEWEST_PT: &[&str] = &["mais recente", "mais novo", "mais atual"];
const OLDEST_PT: &[&str] = &["mais antigo", "mais velho"];

/// Whether `q` is one of `templates` with `{d}` a word for one document (or `{ds}` for
/// documents) and `{x}` one of `fill`.
fn matches(q: &str, templates: &[&str], fill: &[&str]) -> bool {
    templates.iter().any(|t| {
        let nouns: &[&str] = if t.contains("{ds}") { DOCS } else { DOC };
        nouns.iter().any(|n| {
            let t = t.replace("{ds}", n).replace("{d}", n);
            fill.iter().any(|x| t.replace("{x}", x) == q)
        })
    })
}

/// A question about the documents' dates: the newest or oldest by publication date, those of
/// a year, the one added last.
fn by_date(q: &str) -> Option<LibraryQuestion> {
    const SUPERLATIVE_EN: &[&str] = &[
        "which is the {x} {d}",
        "what is the {x} {d}",
        "whats the {x} {d}",
        "which {d} is the {x}",
        "which {d} is {x}",
        "the {x} {d}",
        "{x} {d}",
        "show me the {x} {d}",
        "which is the {x} {d} in the library",
        "what is the {x} {d} in the library",
    ];
    const SUPERLATIVE_PT: &[&str] = &[
        "qual e o {d} {x}",
        "qual o {d} {x}",
        "qual {d} e o {x}",
        "qual e o {x} {d}",
        "o {d} {x}",
        "{d} {x}",
        "mostre o {d} {x}",
        "qual e o {d} {x} da biblioteca",
        "qual o {d} {x} da biblioteca",
    ];
    for (newest, en, pt) in [(true, NEWEST_EN, NEWEST_PT), (false, OLDEST_EN, OLDEST_PT)] {
        if matches(q, SUPERLATIVE_EN, en) || matches(q, SUPERLATIVE_PT, pt) {
            return Some(LibraryQuestion::Dated { newest });
        }
    }
    const LAST_ADDED: &[&str] = &[
        "which {d} was added last",
        "what was the last {d} added",
        "what was the last {d} i added",
        "which {d} was added most recently",
        "the last {d} added",
        "last {d} added",
        "qual foi o ultimo {d} adicionado",
        "qual o ultimo {d} adicionado",
        "qual {d} foi adicionado por ultimo",
        "ultimo {d} adicionado",
    ];
    if matches(q, LAST_ADDED, &[""]) {
        return Some(LibraryQuestion::LastAdded);
    }
    // "which documents are from 2023?", "quais documentos são de 2023?"
    let (rest, year) = q.rsplit_once(' ')?;
    let year: u16 = year.parse().ok().filter(|y| (1900..=2100).contains(y))?;
    const FROM_YEAR: &[&str] = &[
        "which {ds} are from",
        "what {ds} are from",
        "which {ds} were published in",
        "what {ds} were published in",
        "which {ds} are dated",
        "list the {ds} from",
        "list the {ds} published in",
        "{ds} from",
        "{ds} published in",
        "quais {ds} sao de",
        "quais sao os {ds} de",
        "quais {ds} foram publicados em",
        "que {ds} sao de",
        "liste os {ds} de",
        "{ds} de",
        "{ds} publicados em",
    ];
    matches(rest, FROM_YEAR, &[""]).then_some(LibraryQuestion::FromYear(year))
}
