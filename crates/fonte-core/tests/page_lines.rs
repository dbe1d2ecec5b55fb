//! Where each line of a page's text is drawn: what the source view marks a passage with (by
//! its character offsets, not by matching words against another renderer's text).

// The hostile-PDF builder of the reader's own tests.
#[path = "../../fonte-pdf/tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use common::hostile::page_with;
use fonte_core::ingest::prepare;
use fonte_core::pdf::{extract, Limits, Report};
use fonte_core::search::chunk::ChunkParams;

fn near(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn lines_are_placed_in_user_space_and_a_range_marks_its_share() {
    // Two lines at 12 pt, then a third drawn at 24 pt under a 0.5 scale: 12 pt on the page.
    let pdf = page_with(
        b"BT /F1 12 Tf 72 720 Td (First line here) Tj 0 -14 Td (Second line) Tj ET\n\
          q 0.5 0 0 0.5 0 0 cm BT /F1 24 Tf 144 1200 Td (Scaled) Tj ET Q\n",
    );
    let doc = extract(&pdf, None, Limits::default());
    assert_eq!(doc.report, Report::Complete);
    let page = &doc.pages[0];
    let texts: Vec<String> = page
        .lines
        .iter()
        .map(|l| {
            page.text
                .chars()
                .skip(l.start as usize)
                .take((l.end - l.start) as usize)
                .collect()
        })
        .collect();
    assert_eq!(
        texts,
        ["First line here", "Second line", "Scaled"],
        "{:?}",
        page.text
    );
    let [x0, y0, x1, y1] = page.lines[0].rect;
    assert!(near(x0, 72.0, 0.5), "{:?}", page.lines[0]);
    assert!(y0 < 720.0 && near(y0, 720.0 - 0.22 * 12.0, 0.5));
    assert!(y1 > 720.0 && near(y1, 720.0 + 0.82 * 12.0, 0.5));
    // Helvetica's "First line here" at 12 pt is about 80 pt wide.
    assert!(x1 > 72.0 + 60.0 && x1 < 72.0 + 110.0, "{x1}");
    assert!(near(page.lines[1].rect[1], 706.0 - 0.22 * 12.0, 0.5));
    // The scaled line is in page space: x 72, baseline 600, 12 pt tall.
    let scaled = page.lines[2].rect;
    assert!(near(scaled[0], 72.0, 0.5) && near(scaled[1], 600.0 - 0.22 * 12.0, 0.5));
    assert!(near(scaled[3] - scaled[1], 12.0 * 1.04, 0.5), "{scaled:?}");

    // "line here" (chars 6..15 of the first line): the right part of that line only.
    let marks = page.marks(6, 15);
    assert_eq!(marks.len(), 1);
    assert!(
        marks[0][0] > x0 + 20.0 && near(marks[0][2], x1, 0.5),
        "{marks:?}"
    );
    // Across a line break: the end of the first line and the start of the second.
    let start = page.lines[1].start as usize;
    let marks = page.marks(6, start + 6);
    assert_eq!(marks.len(), 2);
    assert!(marks[1][2] < page.lines[1].rect[2]);
    assert!(page.marks(0, 0).is_empty());
}

#[test]
fn every_chunk_of_real_documents_has_marks_on_its_page() {
    let dir = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("fixtures/pdfs");
    let count = |s: &str| s.split_whitespace().count();
    for rel in [
        "pt/tutorialbeamer.pdf",
        "en/debian-faq.en.pdf",
        "multicolumn/sample-sigconf.pdf",
    ] {
        let bytes = std::fs::read(dir.join(rel)).unwrap();
        let p = prepare(rel, &bytes, None, ChunkParams::default(), &count);
        assert!(!p.chunks.is_empty(), "{rel}");
        for page in &p.pages {
            // Lines follow the text, do not overlap, and hold every visible character.
            let chars: Vec<char> = page.text.chars().collect();
            let mut covered = vec![false; chars.len()];
            let mut last = 0;
            for l in &page.lines {
                assert!(l.start >= last && l.end > l.start, "{rel} p{}", page.number);
                last = l.end;
                let [x0, y0, x1, y1] = l.rect;
                assert!(x1 >= x0 && y1 > y0, "{rel} p{}: {l:?}", page.number);
                for c in &mut covered[l.start as usize..l.end as usize] {
                    *c = true;
                }
                assert!(!chars[l.start as usize..l.end as usize].contains(&'\n'));
            }
            for (i, c) in chars.iter().enumerate() {
                assert!(
                    c.is_whitespace() || covered[i],
                    "{rel} p{} char {i}",
                    page.number
                );
            }
        }
        for c in &p.chunks {
            let page = p.pages.iter().find(|pg| pg.number == c.page).unwrap();
            assert!(
                !page.marks(c.char_start, c.char_end).is_empty(),
                "{rel}: chunk on page {} has no marks",
                c.page
            );
        }
    }
}
