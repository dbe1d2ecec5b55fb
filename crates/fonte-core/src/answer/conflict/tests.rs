//! The conflict detector on crafted evidence: what it catches (a changed amount, a moved date,
//! a rule negated, in either language) and what it leaves alone (the same numbers, unrelated
//! sentences, one document with itself, an older version beside its current one), and what it
//! does not catch (numbers written as words).

use super::*;
use crate::pdf::dates::PubDate;

fn source(n: u32, doc: &str, text: &str) -> Source {
    Source {
        n,
        doc_id: doc.into(),
        doc: format!("{doc}.pdf"),
        page: 1,
        char_start: 0,
        char_end: text.len(),
        text: text.into(),
        version: None,
    }
}

fn said(c: &Conflict, sources: &[Source]) -> (String, String) {
    let text = |s: &Side| sources[s.n as usize - 1].text[s.span.clone()].to_string();
    (text(&c.first), text(&c.second))
}

#[test]
fn a_changed_amount_between_two_documents_is_a_conflict_with_both_values() {
    let sources = [
        source(1, "a", "Quiet hours start at ten. Each household pays a monthly maintenance fee of 520 reais, due on the fifth working day."),
        source(2, "b", "Each household pays a monthly maintenance fee of 450 reais, due on the fifth working day. Bicycles stay in the basement."),
    ];
    let found = conflicts(&sources, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].first.n, found[0].second.n), (1, 2));
    assert_eq!(found[0].first.values, ["520"]);
    assert_eq!(found[0].second.values, ["450"]);
    let (a, b) = said(&found[0], &sources);
    assert!(
        a.contains("520 reais") && b.contains("450 reais"),
        "{a} / {b}"
    );
}

#[test]
fn a_moved_date_and_a_negated_rule_are_conflicts_in_either_language() {
    let dates = [
        source(
            1,
            "a",
            "The annual report must be filed with the board by 2024-03-31 at the latest.",
        ),
        source(
            2,
            "b",
            "The annual report must be filed with the board by 2024-04-30 at the latest.",
        ),
    ];
    assert_eq!(conflicts(&dates, &[])[0].first.values, ["2024-03-31"]);
    let negated = [
        source(
            1,
            "a",
            "Dogs are allowed in the garden and the meeting room of the building.",
        ),
        source(
            2,
            "b",
            "Dogs are not allowed in the garden and the meeting room of the building.",
        ),
    ];
    let found = conflicts(&negated, &[]);
    assert_eq!(found.len(), 1);
    assert!(found[0].second.negated && !found[0].first.negated);
    let pt = [
        source(
            1,
            "a",
            "A taxa mensal de manutenção de cada morador é de 520 reais por unidade.",
        ),
        source(
            2,
            "b",
            "A taxa mensal de manutenção de cada morador é de 450 reais por unidade.",
        ),
    ];
    assert_eq!(conflicts(&pt, &[]).len(), 1);
}

#[test]
fn agreeing_unrelated_or_same_document_sentences_are_not_conflicts() {
    let agree = [
        source(1, "a", "Each household pays a monthly maintenance fee of 450 reais, due on the fifth working day."),
        source(2, "b", "Each household pays a monthly maintenance fee of 450 reais, due on the fifth working day."),
    ];
    assert!(conflicts(&agree, &[]).is_empty());
    let unrelated = [
        source(
            1,
            "a",
            "Chapter 3 explains how to install 12 packages with apt.",
        ),
        source(
            2,
            "b",
            "The garden has 40 plants and 3 compost bins near the north gate.",
        ),
    ];
    assert!(conflicts(&unrelated, &[]).is_empty());
    let same_doc = [
        source(
            1,
            "a",
            "The monthly maintenance fee of each household is 450 reais in 2023.",
        ),
        source(
            2,
            "a",
            "The monthly maintenance fee of each household is 520 reais in 2025.",
        ),
    ];
    assert!(conflicts(&same_doc, &[]).is_empty());
    // Only the sources asked about.
    let three = [
        source(1, "a", "Each household pays a monthly maintenance fee of 520 reais, due on the fifth working day."),
        source(2, "c", "Something else entirely."),
        source(3, "b", "Each household pays a monthly maintenance fee of 450 reais, due on the fifth working day."),
    ];
    assert!(conflicts(&three, &[1, 2]).is_empty());
    assert_eq!(conflicts(&three, &[1, 3]).len(), 1);
}

#[test]
fn an_older_version_beside_its_current_one_is_history_not_a_conflict() {
    let day = |year| PubDate {
        year,
        month: None,
        day: None,
    };
    let fee = |n, doc: &str, amount| {
        source(n, doc, &format!("Each household pays a monthly maintenance fee of {amount} reais, due on the fifth working day."))
    };
    let mut current = fee(1, "new", 520);
    current.version = Some(VersionNote::Current {
        date: day(2025),
        supersedes: vec![day(2023)],
    });
    let mut older = fee(2, "old", 450);
    older.version = Some(VersionNote::Superseded {
        date: day(2023),
        by: day(2025),
    });
    assert!(conflicts(&[current.clone(), older.clone()], &[]).is_empty());
    // Versions whose order cannot be told do disagree.
    older.version = Some(VersionNote::Undecided { date: None });
    current.version = Some(VersionNote::Undecided {
        date: Some(day(2025)),
    });
    assert_eq!(conflicts(&[current, older], &[]).len(), 1);
}

#[test]
fn a_translation_a_path_or_a_section_number_is_not_a_disagreement() {
    // From the Debian FAQ in English and in Portuguese (flagged by an earlier version).
    let translation = [
        source(
            1,
            "en",
            "3.2 But what about Knoppix, Linux Mint Debian Edition, Ubuntu, and others?",
        ),
        source(
            2,
            "pt",
            "3.2.1 Eu sei que Knoppix/Linux Mint Debian Edition/Ubuntu/... são baseadas em Debian.",
        ),
    ];
    assert!(conflicts(&translation, &[]).is_empty());
    let paths = [
        source(1, "a", "The instructions for reporting a bug are in the file /usr/share/doc/debian/bug-reporting.txt on release 12."),
        source(2, "b", "The instructions for reporting a bug are in the file /usr/share/doc/debian/bug-reporting.txt on release 12."),
    ];
    assert!(conflicts(&paths, &[]).is_empty());
    let headings = [
        source(
            1,
            "a",
            "4.1 Installing the monthly maintenance fee reports from the board",
        ),
        source(
            2,
            "b",
            "5.3 Installing the monthly maintenance fee reports from the board",
        ),
    ];
    assert!(conflicts(&headings, &[]).is_empty());
    // Portuguese "no" is "in the", not a negation.
    let no = [
        source(
            1,
            "a",
            "As instruções para relatar um erro estão no ficheiro do pacote de documentação.",
        ),
        source(
            2,
            "b",
            "As instruções para relatar um erro estão em um ficheiro do pacote de documentação.",
        ),
    ];
    assert!(conflicts(&no, &[]).is_empty());
}

#[test]
fn numbers_written_as_words_are_not_caught() {
    let words = [
        source(
            1,
            "a",
            "Quiet hours run from ten in the evening until seven in the morning every day.",
        ),
        source(
            2,
            "b",
            "Quiet hours run from eleven in the evening until seven in the morning every day.",
        ),
    ];
    assert!(conflicts(&words, &[]).is_empty());
}
