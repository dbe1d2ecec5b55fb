//! Margin line numbers (legal drafts, pleadings, the `lineno` package): the numbers are kept
//! out of the chunks, the prose around them is not.

// The hostile-PDF builder of the reader's own tests.
#[path = "../../fonte-pdf/tests/common/mod.rs"]
mod common;

use common::hostile::page_with;
use fonte_core::ingest::prepare;
use fonte_core::pdf::{extract, Limits};
use fonte_core::search::chunk::ChunkParams;

const PROSE: [&str; 12] = [
    "The tenant shall pay the rent on the first day",
    "of each month, by transfer to the account that",
    "the landlord names in writing. A payment made",
    "later than the tenth day of the month carries",
    "a fee of two per cent of the rent for each week",
    "of delay, and the landlord may end this lease",
    "after three months of unpaid rent, with notice",
    "given thirty days before. The deposit is kept",
    "by the landlord until the keys are returned and",
    "the flat is found in the state it was let in.",
    "Repairs that the tenant caused are paid out of",
    "the deposit; the rest is returned within a month.",
];

/// `PROSE` three times: a page of 36 lines.
fn lines() -> impl Iterator<Item = &'static str> {
    PROSE.iter().chain(&PROSE).chain(&PROSE).copied()
}

/// A page of [`lines`] at x 72 with their numbers at x `at` (every `step`th line numbered).
fn numbered_page(at: u32, step: usize) -> Vec<u8> {
    let mut content = String::new();
    for (i, line) in lines().enumerate() {
        let y = 700 - 14 * i as i32;
        content.push_str(&format!("BT /F1 11 Tf 72 {y} Td ({line}) Tj ET\n"));
        if (i + 1) % step == 0 {
            content.push_str(&format!("BT /F1 9 Tf {at} {y} Td ({}) Tj ET\n", i + 1));
        }
    }
    page_with(content.as_bytes())
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn margin_line_numbers_are_kept_out_of_the_chunks_and_the_prose_is_not() {
    let prose = words(&lines().collect::<Vec<_>>().join(" "));
    // Numbers on every line at the left margin, on every fifth, at the right margin.
    for (at, step) in [(40, 1), (40, 5), (560, 1), (560, 5)] {
        let pdf = numbered_page(at, step);
        let doc = extract(&pdf, None, Limits::default());
        let text = &doc.pages[0].text;
        assert!(text.contains("10"), "the page's text keeps them: {text:?}");
        let prepared = prepare(
            "lease.pdf",
            &pdf,
            None,
            ChunkParams::default(),
            &|s: &str| s.split_whitespace().count(),
        );
        let chunked: Vec<String> = prepared
            .chunks
            .iter()
            .flat_map(|c| words(&c.text))
            .collect();
        assert_eq!(chunked, prose, "margin at x {at}, every {step}: {text:?}");
        // The chunk still covers the page from its first word to its last, numbers included.
        let first = &prepared.chunks[0];
        assert_eq!(first.char_start, 0);
        assert!(text.chars().count() - prepared.chunks.last().unwrap().char_end <= 3);
    }
}

#[test]
fn a_numbered_list_keeps_its_numbers() {
    let pdf = page_with(
        b"BT /F1 11 Tf 72 700 Td (1 Open the lid) Tj ET\n\
          BT /F1 11 Tf 72 686 Td (2 Pour the water in) Tj ET\n\
          BT /F1 11 Tf 72 672 Td (3 Close the lid again) Tj ET\n",
    );
    let prepared = prepare(
        "steps.pdf",
        &pdf,
        None,
        ChunkParams::default(),
        &|s: &str| s.split_whitespace().count(),
    );
    let text: Vec<&str> = prepared.chunks.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        text.concat().matches(char::is_numeric).count(),
        3,
        "{text:?}"
    );
}
