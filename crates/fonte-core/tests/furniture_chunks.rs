//! The page furniture the reader marks on real PDFs (running headers, contents and index
//! entries) kept out of the chunks, from `../shared/fixtures/pdfs` (see its SOURCES.md).

use std::path::PathBuf;

use fonte_core::pdf::{extract, Limits};
use fonte_core::search::chunk::{chunk_document, ChunkParams};

/// The shared fixtures' PDFs: `$FONTE_SHARED/fixtures/pdfs`, by default next to the checkout.
fn fixture(rel: &str) -> Vec<u8> {
    let path = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("fixtures/pdfs")
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn running_headers_of_the_faq_are_kept_out_of_the_chunks() {
    let doc = extract(&fixture("en/debian-faq.en.pdf"), None, Limits::default());
    // Its headers name the chapter and the section, so no two chapters' are alike:
    // "CHAPTER 4. COMPATIBILITY ISSUES 4.5. CAN I USE DEBIAN PACKAGES …".
    let count = |t: &str| t.split_whitespace().count();
    let chunks = chunk_document(&doc.pages, ChunkParams::default(), &count);
    let headers: Vec<&str> = chunks
        .iter()
        .flat_map(|c| c.text.lines())
        .filter(|l| l.starts_with("CHAPTER ") && l.contains(". "))
        .collect();
    assert!(headers.is_empty(), "{headers:?}");
    // The sections those headers repeat are still there.
    assert!(chunks
        .iter()
        .any(|c| c.text.contains("Can I use Debian packages")));
}

#[test]
fn running_headers_of_left_and_right_pages_are_kept_out_of_the_chunks() {
    // gnuplot.pdf is set two-sided: "24 gnuplot 5.4" on left pages, "gnuplot 5.4 25" on
    // right ones, each on fewer than half of its 311 pages.
    let doc = extract(&fixture("en/gnuplot.pdf"), None, Limits::default());
    let count = |t: &str| t.split_whitespace().count();
    let chunks = chunk_document(&doc.pages, ChunkParams::default(), &count);
    let header = |line: &str| {
        let w: Vec<&str> = line.split_whitespace().collect();
        w.len() == 3 && w.contains(&"gnuplot") && w.contains(&"5.4")
    };
    let with_header = chunks.iter().filter(|c| c.text.lines().any(header)).count();
    assert_eq!(with_header, 0, "no chunk holds a running header");
    assert!(chunks.len() > 1500, "{} chunks", chunks.len());
}

#[test]
fn a_wrapped_line_that_starts_with_a_number_does_not_cut_its_paragraph() {
    // gnuplot.pdf p. 101: "…with 10 points along the first (x) dimension and" / "20 points
    // along the second (y) dimension. …" was taken for a section "20 points…", which began a
    // chunk and became the heading of the passages after it.
    let doc = extract(&fixture("en/gnuplot.pdf"), None, Limits::default());
    let count = |t: &str| t.split_whitespace().count();
    let chunks = chunk_document(&doc.pages, ChunkParams::default(), &count);
    let at = chunks
        .iter()
        .find(|c| c.text.contains("20 points along the second (y) dimension"))
        .expect("the passage");
    assert!(
        at.text.contains("10 points along the first (x) dimension"),
        "{:?}",
        at.text
    );
    assert!(!chunks
        .iter()
        .flat_map(|c| &c.heading_path)
        .any(|h| h.starts_with("20 points")));
}

#[test]
fn table_of_contents_entries_are_kept_out_of_the_chunks_of_the_portuguese_faq() {
    let doc = extract(&fixture("pt/debian-faq.pt.pdf"), None, Limits::default());
    // Its contents pages: entries with dot leaders and page numbers.
    let toc = doc
        .pages
        .iter()
        .find(|p| p.text.contains("O que é esta FAQ?") && p.text.contains(". . . ."))
        .expect("a contents page");
    assert!(toc.furniture.len() > 10, "{} ranges", toc.furniture.len());
    // Words stand in for tokens: which lines are skipped does not depend on the count.
    let count = |t: &str| t.split_whitespace().count();
    let chunks = chunk_document(&doc.pages, ChunkParams::default(), &count);
    let leaders = chunks
        .iter()
        .filter(|c| c.text.contains(". . . . ."))
        .count();
    assert_eq!(leaders, 0, "no chunk holds a contents entry");
    // The section an entry points to is still there, with its text.
    assert!(chunks.iter().any(|c| c
        .text
        .contains("Como é que Eu instalo Debian a partir de CD-ROMs?")
        && !c.text.contains(". . .")));
}

#[test]
fn back_of_book_index_pages_are_kept_out_of_the_chunks() {
    // gnuplot.pdf ends with an index (no leaders: "pm3d, 64, 141, 188, 203"), pt-lshort.pdf
    // with a Portuguese one ("sinal de menos, 22").
    for (rel, entry, prose) in [
        (
            "en/gnuplot.pdf",
            "pm3d, 64, 141, 188, 203",
            "The command-line syntax for these is simple",
        ),
        ("pt/pt-lshort.pdf", "sinal de menos, 22", "LATEX"),
    ] {
        let doc = extract(&fixture(rel), None, Limits::default());
        let index = doc
            .pages
            .iter()
            .find(|p| p.text.contains(entry))
            .expect("an index page");
        assert!(
            index.furniture.len() > 20,
            "{rel}: {} ranges",
            index.furniture.len()
        );
        let count = |t: &str| t.split_whitespace().count();
        let chunks = chunk_document(&doc.pages, ChunkParams::default(), &count);
        assert!(
            !chunks.iter().any(|c| c.text.contains(entry)),
            "{rel}: no chunk holds an index entry"
        );
        // Body pages keep their text: past the contents (whose entries have leaders), no page
        // of prose loses more than a running header or a line or two.
        assert!(chunks.iter().any(|c| c.text.contains(prose)), "{rel}");
        let marked: Vec<u32> = doc
            .pages
            .iter()
            .filter(|p| p.number > 25 && p.number < index.number - 10)
            .filter(|p| p.furniture.len() > 6)
            .map(|p| p.number)
            .collect();
        assert!(
            marked.len() <= 2,
            "{rel}: body pages with lines marked: {marked:?}"
        );
    }
}
