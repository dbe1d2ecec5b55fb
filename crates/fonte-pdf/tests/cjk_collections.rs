//! CID fonts of the Adobe CJK collections without ToUnicode (a non-embedded Ryumin-Light under
//! Identity-H or -V, as pdfminer's jo.pdf draws a poem by Miyazawa Kenji): each CID is the
//! collection's character, and vertical writing (WMode 1) reads column by column, right to
//! left. Until stop 34 every glyph of such a file was lost (reported, but no text); until stop
//! 42, every glyph under a predefined CMap whose codes are neither CIDs nor Unicode (H,
//! 90ms-RKSJ-H, GBK-EUC-H…).

mod common;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits, Report};

/// One page drawing `content` with /F1, a Type0 font of `ordering` (registry Adobe) under the
/// predefined CMap `encoding`, no ToUnicode, no program embedded.
fn page(encoding: &str, ordering: &str, content: &str) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let descriptor = b.obj(
        "<< /Type /FontDescriptor /FontName /Ryumin-Light /Flags 6 /FontBBox [-170 -331 1024 903] \
         /ItalicAngle 0 /Ascent 723 /Descent -241 /CapHeight 709 /StemV 69 >>",
    );
    let descendant = b.obj(format!(
        "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Ryumin-Light /DW 1000 \
         /FontDescriptor {descriptor} 0 R \
         /CIDSystemInfo << /Registry (Adobe) /Ordering ({ordering}) /Supplement 2 >> >>"
    ));
    let font = b.obj(format!(
        "<< /Type /Font /Subtype /Type0 /BaseFont /Ryumin-Light-{encoding} /Encoding /{encoding} \
         /DescendantFonts [{descendant} 0 R] >>"
    ));
    let content = b.stream("", content.as_bytes());
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] \
         /Resources << /Font << /F1 {font} 0 R >> >> /Contents {content} 0 R >>"
    )
    .into_bytes();
    b.finish(catalog)
}

#[test]
fn identity_codes_of_a_japan1_font_are_its_characters() {
    // 日本語の文書: CIDs 3284 3722 1952 550 3592 2427 of Adobe-Japan1.
    let pdf = page(
        "Identity-H",
        "Japan1",
        "BT /F1 12 Tf 72 720 Td <0cd40e8a07a002260e08097b> Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "日本語の文書");
}

#[test]
fn vertical_columns_read_right_to_left_each_top_to_bottom() {
    // Two columns under Identity-V, the right one drawn first; a positive TJ number moves the
    // pen down (here a glyph's worth: a gap inside the second column, not a new column).
    let content = "BT /F1 20 Tf 1 0 0 1 500 760 Tm <0de90720> Tj \
                   1 0 0 1 470 760 Tm [<094e097b0214> 1000 <02260fbb>] TJ ET";
    let out = extract(
        &page("Identity-V", "Japan1", content),
        None,
        Limits::default(),
    );
    assert_eq!(out.report, Report::Complete);
    let lines: Vec<&str> = out.pages[0]
        .text
        .lines()
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines, ["風景", "縦書き の列"], "{:?}", out.pages[0].text);
}

#[test]
fn codes_of_a_predefined_cjk_cmap_select_the_collections_characters() {
    // 日本 and one-byte ASCII in Shift-JIS (90ms-RKSJ-H, old Acrobat's and Word's Japanese), in
    // JIS X 0208 (H, dvipdfm's), in GBK (GBK-EUC-H: 中文) and in Big5 (B5pc-H: 中文): until
    // stop 42 each was lost, Fonte holding no table of these CMaps (ipadic-ja.pdf, 0.55).
    for (encoding, ordering, codes, text) in [
        ("90ms-RKSJ-H", "Japan1", "93fa967b2041", "日本 A"),
        ("H", "Japan1", "467c4b5c", "日本"),
        ("EUC-H", "Japan1", "c6fccbdc", "日本"),
        ("GBK-EUC-H", "GB1", "d6d0cec4", "中文"),
        ("B5pc-H", "CNS1", "a4a4a4e5", "中文"),
    ] {
        let content = format!("BT /F1 12 Tf 72 720 Td <{codes}> Tj ET");
        let out = extract(&page(encoding, ordering, &content), None, Limits::default());
        assert_eq!(out.report, Report::Complete, "{encoding}");
        assert_eq!(out.pages[0].text, text, "{encoding}");
    }
    // Vertical: V reads as H, column by column.
    let content = "BT /F1 20 Tf 1 0 0 1 500 760 Tm <467c4b5c> Tj ET";
    let out = extract(&page("V", "Japan1", content), None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "日本");
}

#[test]
fn an_unknown_ordering_or_a_predefined_cmap_without_its_table_stays_reported() {
    for (encoding, ordering, codes) in [
        // Identity codes of an ordering nobody publishes a table for: nothing to read them by.
        ("Identity-H", "Custom", "0cd40e8a"),
        // A CMap of a collection Fonte holds no table of (Adobe-Japan2's Hojo kanji, which
        // Adobe withdrew): its CIDs read as Japan1's would be other characters ("D" for
        // <3021>, until stop 43 wrote Hojo-H's table, which poppler-data keeps beside
        // Japan1's, as Japan1's), so they are reported lost. (UTF-8 codes, UniJIS-UTF8-H, are
        // read as the characters they code since stop 43: lost_glyphs.rs.)
        ("Hojo-H", "Japan2", "3021"),
    ] {
        let content = format!("BT /F1 12 Tf 72 720 Td <{codes}> Tj ET");
        let out = extract(&page(encoding, ordering, &content), None, Limits::default());
        assert!(
            matches!(out.report, Report::Rejected { .. }),
            "{encoding}: {:?} {:?}",
            out.report,
            out.pages[0].text
        );
        assert_eq!(out.pages[0].text, "", "{encoding}");
    }
}

#[test]
fn a_column_whose_top_stands_above_the_page_keeps_its_first_glyph() {
    // A vertical font's origin is the top of the glyph: a column starting 3 points above the
    // page (842) shows its first glyph all but its top, and a viewer shows it. Judged by its
    // origin it was dropped (asymptote-by-example-zh-cn's xiantu.pdf read "圖" for "弦圖").
    let content = "BT /F1 20 Tf 1 0 0 1 500 845 Tm <0de90720> Tj ET";
    let out = extract(
        &page("Identity-V", "Japan1", content),
        None,
        Limits::default(),
    );
    assert_eq!(out.pages[0].text.trim(), "風景");
    // A column drawn above the page, its glyphs' middles outside it, is not shown.
    let content = "BT /F1 20 Tf 1 0 0 1 500 900 Tm <0de90720> Tj \
                   1 0 0 1 470 760 Tm <094e097b> Tj ET";
    let out = extract(
        &page("Identity-V", "Japan1", content),
        None,
        Limits::default(),
    );
    assert_eq!(out.pages[0].text.trim(), "縦書");
    assert_eq!(out.report, Report::Complete);
}
