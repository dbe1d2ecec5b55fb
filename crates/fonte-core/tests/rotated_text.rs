//! Text drawn in the four right-angle directions (a label up the margin, a rotated table, an
//! upside-down box) is read, each direction laid out in its own frame after the upright text,
//! with line boxes in the page's space; skewed text stays out.

mod common;

use common::hostile::page_with;
use fonte_core::pdf::{extract, Limits, Report};

#[test]
fn rotated_text_is_read_after_the_upright_text_with_boxes_on_the_page() {
    let content = b"BT /F1 12 Tf 1 0 0 1 72 700 Tm (Upright prose comes first) Tj ET
BT /F1 12 Tf 0 1 -1 0 40 200 Tm (written up the left margin) Tj ET
BT /F1 12 Tf -1 0 0 -1 500 100 Tm (an upside down box) Tj ET
BT /F1 12 Tf 0 -1 1 0 580 600 Tm (written down the right margin) Tj ET
BT /F1 12 Tf 0.7 0.7 -0.7 0.7 300 400 Tm (a skewed watermark) Tj ET";
    let out = extract(&page_with(content), None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    let page = &out.pages[0];
    let text = &page.text;
    let at = |s: &str| {
        text.find(s)
            .unwrap_or_else(|| panic!("{s:?} not in {text:?}"))
    };
    assert!(at("Upright prose comes first") < at("written up the left margin"));
    assert!(at("written up the left margin") < at("an upside down box"));
    assert!(at("an upside down box") < at("written down the right margin"));
    assert!(!text.contains("skewed"), "{text:?}");
    // Each line's box is where its glyphs are on the page.
    let rect_of = |s: &str| {
        let start = text[..at(s)].chars().count() as u32;
        page.lines.iter().find(|l| l.start == start).unwrap().rect
    };
    let [x0, y0, x1, y1] = rect_of("written up the left margin");
    assert!(
        x0 < 40.0 && x1 > 29.0 && x1 < 45.0 && y0 < 201.0 && y1 > 300.0,
        "{:?}",
        [x0, y0, x1, y1]
    );
    let [x0, y0, x1, y1] = rect_of("written down the right margin");
    assert!(
        x0 > 575.0 && x0 < 581.0 && y1 > 599.0 && y0 < 500.0,
        "{:?}",
        [x0, y0, x1, y1]
    );
    let [x0, y0, x1, y1] = rect_of("an upside down box");
    assert!(
        x1 > 499.0 && x0 < 420.0 && y0 < 101.0 && y1 > 100.0,
        "{:?}",
        [x0, y0, x1, y1]
    );
}
