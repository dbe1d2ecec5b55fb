//! Text drawn in the four right-angle directions (a label up the margin, a rotated table, an
//! upside-down box) is read, each direction laid out in its own frame after the upright text,
//! with line boxes in the page's space; skewed text (a slanted line, words on an arc) follows
//! it, run by run, and a mirrored glyph stays in its line.

mod common;

use common::hostile::page_with;
use fonte_pdf::{extract, Limits, Report};

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
    assert!(at("written down the right margin") < at("a skewed watermark"));
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

/// The box of the page's line that holds `s`.
fn line_of(page: &fonte_pdf::PageText, s: &str) -> [f32; 4] {
    let at = page
        .text
        .find(s)
        .unwrap_or_else(|| panic!("{s:?} not in {:?}", page.text));
    let start = page.text[..at].chars().count() as u32;
    page.lines
        .iter()
        .find(|l| l.start <= start && l.end > start)
        .unwrap()
        .rect
}

#[test]
fn a_line_two_degrees_off_the_horizontal_reads_as_one_line() {
    // An OCR layer over a scan that was not straightened: each word moved along the slanted
    // baseline, which climbs 14 points (more than a line) from the first word to the last.
    let words = [
        "Lorem",
        "ipsum",
        "dolor",
        "sit",
        "amet",
        "consectetur",
        "adipiscing",
        "elit",
    ];
    let mut content = b"BT /F1 12 Tf 0.99939 0.0349 -0.0349 0.99939 72 600 Tm".to_vec();
    for w in words {
        content.extend_from_slice(format!(" ({w}) Tj 70 0 Td").as_bytes());
    }
    content.extend_from_slice(b" ET BT /F1 12 Tf 72 500 Td (Upright) Tj ET");
    let out = extract(&page_with(&content), None, Limits::default());
    let page = &out.pages[0];
    assert_eq!(page.text, format!("Upright\n\n{}", words.join(" ")));
    let [x0, y0, x1, y1] = line_of(page, "Lorem");
    assert!(
        x0 < 72.5 && y0 < 600.5 && x1 > 570.0 && y1 > 620.0,
        "{:?}",
        [x0, y0, x1, y1]
    );
}

#[test]
fn words_set_on_an_arc_read_as_one_line() {
    // MetaPost's text along a path: each glyph drawn with its own matrix, turned to the
    // tangent, where the advance of the one before ends on a circle of radius 120.
    let text = "How could this long judgment fit";
    let width = |c: char| match c {
        'f' | 't' | ' ' => 278.0,
        'i' | 'l' | 'j' => 222.0,
        'm' => 833.0,
        'H' => 722.0,
        'W' => 944.0,
        's' | 'c' => 500.0,
        _ => 556.0,
    };
    let (r, mut phi) = (120.0f32, 160f32.to_radians());
    let mut content = Vec::new();
    for c in text.chars() {
        let (x, y) = (300.0 + r * phi.cos(), 400.0 + r * phi.sin());
        let t = phi - std::f32::consts::FRAC_PI_2;
        if c != ' ' {
            content.extend_from_slice(
                format!(
                    "BT /F1 12 Tf {} {} {} {} {x} {y} Tm ({c}) Tj ET\n",
                    t.cos(),
                    t.sin(),
                    -t.sin(),
                    t.cos()
                )
                .as_bytes(),
            );
        }
        phi -= width(c) / 1000.0 * 12.0 / r;
    }
    let out = extract(&page_with(&content), None, Limits::default());
    assert_eq!(out.pages[0].text, text);
}

#[test]
fn a_mirrored_letter_stays_in_its_word() {
    // The XeTeX logo: its E reflected in place (`\\reflectbox`), drawn from x = 88 leftwards.
    let content = b"BT /F1 12 Tf 72 700 Td (X) Tj ET
q -1 0 0 1 0 0 cm BT /F1 12 Tf -88 700 Td (E) Tj ET Q
BT /F1 12 Tf 88 700 Td (TeX is a typesetting engine) Tj ET";
    let out = extract(&page_with(content), None, Limits::default());
    assert_eq!(out.pages[0].text, "XETeX is a typesetting engine");
}
