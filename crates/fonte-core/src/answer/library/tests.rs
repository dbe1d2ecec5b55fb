//! The recogniser's table: phrasings in English and Portuguese that ask about the library
//! (each with what it asks), and as many that must not be taken for one (questions about the
//! documents' content that share its words). Written from how people ask, not tuned to the
//! rules: the figures below are its precision and recall on this table.

use super::*;

use LibraryQuestion::{Count, Dated, FromYear, LastAdded, List, Mentions};

fn m(term: &str) -> Option<LibraryQuestion> {
    Some(Mentions { term: term.into() })
}

#[test]
fn the_table_of_phrasings() {
    let asks: Vec<(&str, Option<LibraryQuestion>)> = vec![
        // About the library.
        (
            "How many documents are there?",
            Some(Count(Counted::Documents)),
        ),
        (
            "how many documents do I have",
            Some(Count(Counted::Documents)),
        ),
        (
            "How many files are in my library?",
            Some(Count(Counted::Documents)),
        ),
        ("How many PDFs?", Some(Count(Counted::Documents))),
        ("How many pages are there?", Some(Count(Counted::Pages))),
        (
            "how many passages does the library have?",
            Some(Count(Counted::Passages)),
        ),
        ("Which documents are there?", Some(List { lang: None })),
        ("What files do you have?", Some(List { lang: None })),
        ("List the documents", Some(List { lang: None })),
        (
            "Which documents are in Portuguese?",
            Some(List {
                lang: Some(Lang::Pt),
            }),
        ),
        (
            "which files are written in English",
            Some(List {
                lang: Some(Lang::En),
            }),
        ),
        ("Which documents mention arbitration?", m("arbitration")),
        (
            "What documents talk about \"data retention\"?",
            m("data retention"),
        ),
        ("How many documents mention GDPR?", m("gdpr")),
        ("Quantos documentos há?", Some(Count(Counted::Documents))),
        (
            "quantos arquivos tenho na biblioteca",
            Some(Count(Counted::Documents)),
        ),
        (
            "Quantos documentos existem na biblioteca?",
            Some(Count(Counted::Documents)),
        ),
        ("Quantas páginas há?", Some(Count(Counted::Pages))),
        ("Quais são os documentos?", Some(List { lang: None })),
        (
            "Quais documentos estão em português?",
            Some(List {
                lang: Some(Lang::Pt),
            }),
        ),
        ("Liste os arquivos", Some(List { lang: None })),
        ("Quais documentos mencionam LGPD?", m("lgpd")),
        (
            "quantos documentos mencionam “prazo de carência”?",
            m("prazo de carencia"),
        ),
        ("Que arquivos falam sobre rescisão?", m("rescisao")),
        // By date.
        (
            "Which is the newest document?",
            Some(Dated { newest: true }),
        ),
        (
            "What is the most recent file?",
            Some(Dated { newest: true }),
        ),
        (
            "which document is the oldest",
            Some(Dated { newest: false }),
        ),
        ("Which documents are from 2023?", Some(FromYear(2023))),
        ("List the documents published in 2021", Some(FromYear(2021))),
        ("What was the last document added?", Some(LastAdded)),
        (
            "Qual é o documento mais recente?",
            Some(Dated { newest: true }),
        ),
        ("qual o arquivo mais antigo", Some(Dated { newest: false })),
        ("Quais documentos são de 2024?", Some(FromYear(2024))),
        (
            "Quais documentos foram publicados em 2019?",
            Some(FromYear(2019)),
        ),
        ("Qual foi o último documento adicionado?", Some(LastAdded)),
        // About the documents' content, sharing the rules' words: not about the library.
        ("Which documents must the tenant provide?", None),
        ("What documents are needed for a student visa?", None),
        ("How many pages must a thesis have?", None),
        ("How many days does the tenant have to pay the rent?", None),
        ("How many documents does an applicant need to submit?", None),
        ("What is the document about?", None),
        ("Which file format does the export use?", None),
        ("List the requirements for the permit", None),
        ("How many passages of the Bible are quoted?", None),
        ("Show me the termination clause", None),
        ("Quais documentos o candidato deve apresentar?", None),
        ("Que documentos são exigidos para a matrícula?", None),
        ("Quantos documentos o inquilino precisa entregar?", None),
        ("Quantas páginas deve ter a dissertação?", None),
        ("Quais arquivos de configuração o programa lê?", None),
        ("Liste os requisitos do edital", None),
        ("Quantos dias o locatário tem para pagar?", None),
        ("Quem são os loucos, os desajustados e os rebeldes?", None),
        ("What does the contract say about documents?", None),
        ("documentos necessários para o visto", None),
        ("What is the newest version of the fee?", None),
        ("Which document must be signed in 2023?", None),
        ("What changed in 2023?", None),
        ("What is the latest deadline for the report?", None),
        ("Which documents from 2023 mention the fee and why?", None),
        ("Qual é o prazo mais recente?", None),
        ("Qual é a versão mais recente do regulamento?", None),
        ("Quais documentos de 2023 o síndico deve guardar?", None),
        ("Qual foi o último reajuste da taxa?", None),
        ("When was the document signed?", None),
        ("Em que ano o documento foi publicado?", None),
    ];
    assert!(asks.len() >= 40);
    let (mut tp, mut fp, mut fn_) = (0, 0, 0);
    let mut wrong = Vec::new();
    for (q, want) in &asks {
        let got = recognise(q);
        match (&got, want) {
            (Some(g), Some(w)) if g == w => tp += 1,
            (Some(_), Some(_)) => {
                fp += 1;
                fn_ += 1;
            }
            (Some(_), None) => fp += 1,
            (None, Some(_)) => fn_ += 1,
            (None, None) => {}
        }
        if &got != want {
            wrong.push(format!("{q:?}: {got:?}, wanted {want:?}"));
        }
    }
    let precision = tp as f64 / (tp + fp).max(1) as f64;
    let recall = tp as f64 / (tp + fn_).max(1) as f64;
    eprintln!(
        "library questions: {} phrasings, precision {precision:.2}, recall {recall:.2}",
        asks.len()
    );
    // Never a content question taken for a library one; every listed phrasing recognised.
    assert_eq!(fp, 0, "{wrong:#?}");
    assert!(wrong.is_empty(), "{wrong:#?}");
}
