//! /ActualText spans say what their glyphs read as: a report's digits drawn in a font that
//! maps them to U+0000, each in `/Span <</ActualText (4)>> BDC … EMC` (PyMuPDF's
//! test_3197.pdf), a ligature, a hyphen that only breaks a line.

mod common;

use common::hostile::page_with;
use fonte_core::pdf::{extract, Limits, Report};

fn text_of(content: &[u8]) -> String {
    let out = extract(&page_with(content), None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    out.pages[0].text.clone()
}

#[test]
fn a_span_reads_as_its_actual_text() {
    let content = b"BT /F1 12 Tf 72 700 Td (Total: ) Tj
/Span <</ActualText (42)>> BDC (xx) Tj EMC ( units) Tj ET";
    assert_eq!(text_of(content), "Total: 42 units");
}

#[test]
fn utf16_text_nested_spans_and_empty_text() {
    // UTF-16 with its mark; the outermost span wins over one inside it; an empty text is a
    // hyphen that only broke the line, gone from the words.
    let content = b"BT /F1 12 Tf 72 700 Td
/P <</MCID 0>> BDC /Span <</ActualText <FEFF00660069>>> BDC (\\256) Tj EMC (nal) Tj EMC
/Span <</ActualText (ly)>> BDC /Span <</ActualText (no)>> BDC (l) Tj EMC (y) Tj EMC
( re) Tj /Span <</ActualText ()>> BDC (-) Tj EMC 0 -14 Td (ad) Tj ET";
    assert_eq!(text_of(content), "finally re\nad");
}

#[test]
fn a_span_left_open_still_takes_its_glyphs() {
    let content = b"BT /F1 12 Tf 72 700 Td (Sum ) Tj /Span <</ActualText (7)>> BDC (?) Tj ET";
    assert_eq!(text_of(content), "Sum 7");
}
