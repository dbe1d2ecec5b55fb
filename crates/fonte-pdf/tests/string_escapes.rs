//! A backslash before a character that is not one of the string escapes is ignored (PDF
//! 32000-1, 7.3.4.2): AutoCAD writes every space of its notes as `\ `. The `pdf` crate read
//! `\ ` as a character code 0 followed by the space, so a glyph of the font's missing width
//! widened every gap between words, and the ends of the lines ran off the page, where they
//! were cut as text outside the crop box (pypdf's AutoCad_Diagram.pdf: "correct mountin").

mod common;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits, Report};

#[test]
fn an_escaped_space_is_a_space_and_nothing_more() {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    // Every code from the space on is 500 units wide; anything else takes /MissingWidth.
    let widths = vec!["500"; 95].join(" ");
    let descriptor = b.obj(
        "<< /Type /FontDescriptor /FontName /ArialMT /Flags 32 /FontBBox [-665 -325 2000 1006] \
         /ItalicAngle 0 /Ascent 728 /Descent -210 /CapHeight 716 /StemV 80 /MissingWidth 1000 >>",
    );
    let font = b.obj(format!(
        "<< /Type /Font /Subtype /TrueType /BaseFont /ArialMT /Encoding /WinAnsiEncoding \
         /FirstChar 32 /LastChar 126 /Widths [{widths}] /FontDescriptor {descriptor} 0 R >>"
    ));
    let contents = b.stream("", b"BT /F1 10 Tf 100 700 Td (case\\ of\\ the\\q) Tj ET");
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 \
         {font} 0 R >> >> /Contents {contents} 0 R >>"
    )
    .into_bytes();
    let out = extract(&b.finish(catalog), None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    let page = &out.pages[0];
    assert_eq!(page.text, "case of theq");
    // Twelve glyphs of 5 points from x = 100.
    let right = page
        .marks(0, page.text.len())
        .iter()
        .map(|m| m[2])
        .fold(0.0, f32::max);
    assert!((right - 160.0).abs() < 0.5, "the line ends at {right}");
}
