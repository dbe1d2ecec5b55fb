//! /ActualText spans say what their glyphs read as: a report's digits drawn in a font that
//! maps them to U+0000, each in `/Span <</ActualText (4)>> BDC … EMC` (PyMuPDF's
//! test_3197.pdf), a ligature, a hyphen that only breaks a line.

mod common;

use common::text_of_page as text_of;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits};

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

#[test]
fn a_long_text_named_by_every_span_is_taken_only_as_far_as_the_page_allows() {
    // A property list holding 1 MB of text, named by 20,000 spans of one glyph each: read
    // once per span, 20 GB; a page takes 4 MiB of /ActualText at most.
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let font = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let mut content = b"BT /F1 12 Tf 72 700 Td".to_vec();
    for _ in 0..20_000 {
        content.extend_from_slice(b" /Span /P1 BDC (a) Tj EMC");
    }
    content.extend_from_slice(b" ET");
    let contents = b.stream("", &content);
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 \
         {font} 0 R >> /Properties << /P1 << /ActualText ({}) >> >> >> /Contents {contents} 0 R >>",
        "x".repeat(1 << 20)
    )
    .into_bytes();
    let out = extract(&b.finish(catalog), None, Limits::default());
    let text = &out.pages[0].text;
    // Four spans take the text; the rest read as their glyphs (those on the page).
    assert_eq!(text.matches(&"x".repeat(1 << 20)).count(), 4);
    assert!(text.len() < 5 << 20, "{} bytes", text.len());
    assert!(text.ends_with("aaaa"), "{:?}", &text[text.len() - 10..]);
}
