//! Text recovered from an embedded TrueType program's own tables (issue 16, item 3) when the
//! PDF does not map its codes: real font programs taken from the fixtures, re-embedded in a
//! file that leaves out the ToUnicode map and the encoding.

mod common;

use std::path::PathBuf;

use common::hostile::{flate, Builder};
use fonte_pdf::{extract, Limits, Loss, RejectReason, Report};
use pdf::file::FileOptions;
use pdf::font::Font;
use pdf::object::ParseOptions;

fn fixture(rel: &str) -> Vec<u8> {
    let shared = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let path = shared.join("fixtures/pdfs").join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The font named `*+{name}` on the first page of fixture `rel`: its embedded program and,
/// where it has one, its ToUnicode map as (code, text) pairs.
fn font_of(rel: &str, name: &str) -> (Vec<u8>, Vec<(u16, String)>) {
    let file = FileOptions::cached()
        .parse_options(ParseOptions::tolerant())
        .load(fixture(rel))
        .unwrap();
    let resolver = file.resolver();
    let page = file.get_page(0).unwrap();
    let fonts: Vec<_> = page
        .resources()
        .unwrap()
        .fonts
        .values()
        .filter_map(|lazy| lazy.load(&resolver).ok())
        .collect();
    let font: &Font = fonts
        .iter()
        .find(|f| f.name.as_ref().is_some_and(|n| n.as_str().ends_with(name)))
        .unwrap_or_else(|| panic!("{name} on page 1 of {rel}"));
    let program = font.embedded_data(&resolver).unwrap().unwrap().to_vec();
    let map = font
        .to_unicode(&resolver)
        .and_then(Result::ok)
        .map(|m| m.iter().map(|(c, t)| (c, t.to_string())).collect())
        .unwrap_or_default();
    (program, map)
}

/// A one-page file whose font /F2 is `font` (a dictionary referring to the FontFile2 object
/// `{program}`), drawing the string `shown`.
fn page_with_font(program: &[u8], font: impl FnOnce(usize) -> String, shown: &str) -> Vec<u8> {
    page_with_font_and(program, &[], |file, _| font(file), shown)
}

/// [`page_with_font`] with the streams `extra` added too, their object numbers given to `font`
/// after the program's.
fn page_with_font_and(
    program: &[u8],
    extra: &[&[u8]],
    font: impl FnOnce(usize, Vec<usize>) -> String,
    shown: &str,
) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let data = flate(program);
    let file = b.stream(
        &format!("/Length1 {} /Filter /FlateDecode", program.len()),
        &data,
    );
    let extra = extra.iter().map(|data| b.stream("", data)).collect();
    let f = b.obj(font(file, extra));
    let contents = b.stream(
        "",
        format!("BT /F2 14 Tf 72 700 Td {shown} Tj ET").as_bytes(),
    );
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F2 {f} \
         0 R >> >> /Contents {contents} 0 R >>"
    )
    .into_bytes();
    b.finish(catalog)
}

const DESCRIPTOR: &str = "/Type /FontDescriptor /FontName /ABCDEF+Program /Flags 4 /FontBBox \
                          [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight \
                          700 /StemV 80";

/// A Type0 font over the CID TrueType program in FontFile2 object `file`, CIDs = glyph ids.
fn cid_font(file: usize) -> String {
    format!(
        "<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Program /Encoding /Identity-H \
         /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Program \
         /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> \
         /FontDescriptor << {DESCRIPTOR} /FontFile2 {file} 0 R >> /CIDToGIDMap /Identity >>] >>"
    )
}

#[test]
fn a_cid_truetype_font_without_tounicode_reads_through_its_program() {
    // form_210966.pdf's Arial subset as a CID font (CID = glyph id), no ToUnicode: the glyphs
    // that draw "Date" (found through the program's cmap) read back as "Date".
    let (program, _) = font_of("forms/form_210966.pdf", "+ArialMT");
    let face = ttf_parser::Face::parse(&program, 0).unwrap();
    let hex: String = "Date"
        .chars()
        .map(|c| format!("{:04X}", face.glyph_index(c).expect("in the subset").0))
        .collect();
    let pdf = page_with_font(&program, cid_font, &format!("<{hex}>"));
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "Date");
    assert_eq!(out.report, Report::Complete);
}

#[test]
fn a_cid_truetype_program_without_a_cmap_is_reported_not_guessed() {
    // debian-faq.en.pdf's Charis SIL subset keeps no cmap and no glyph names (as most CID
    // TrueType subsets): without the PDF's ToUnicode nothing says what its glyphs are.
    let (program, map) = font_of("en/debian-faq.en.pdf", "+CharisSIL");
    let hex: String = "Debian"
        .chars()
        .map(|c| {
            let (code, _) = map.iter().find(|(_, t)| t.chars().eq([c])).unwrap();
            format!("{code:04X}")
        })
        .collect();
    let pdf = page_with_font(&program, cid_font, &format!("<{hex}>"));
    assert_eq!(
        extract(&pdf, None, Limits::default()).report,
        Report::Rejected {
            reason: RejectReason::Undecodable {
                why: Loss::NoUnicode,
                shown: 6
            }
        }
    );
}

#[test]
fn a_symbolic_truetype_font_without_an_encoding_reads_through_its_cmap() {
    // form_210966.pdf's Arial subset, declared symbolic with no /Encoding and no ToUnicode:
    // the codes select glyphs through the program's own cmap, whose Unicode subtable says
    // which character each glyph is.
    let (program, _) = font_of("forms/form_210966.pdf", "+ArialMT");
    let pdf = page_with_font(
        &program,
        |file| {
            format!(
                "<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Program /FirstChar 32 \
                 /LastChar 126 /Widths [{}] /FontDescriptor << {DESCRIPTOR} /FontFile2 {file} \
                 0 R >> >>",
                vec!["556"; 95].join(" ")
            )
        },
        "(Date)",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "Date");
    assert_eq!(out.report, Report::Complete);
}

/// A simple TrueType font over the symbolic program in FontFile2 object `file`, no encoding,
/// with the entries `more`.
fn symbolic_font(file: usize, more: &str) -> String {
    format!(
        "<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Program /FirstChar 32 \
         /LastChar 126 /Widths [{}] /FontDescriptor << {DESCRIPTOR} /FontFile2 {file} 0 R >> \
         {more} >>",
        vec!["556"; 95].join(" ")
    )
}

#[test]
fn a_program_whose_table_directory_is_out_of_order_is_read() {
    // A New York tax form's Arial subsets (PyMuPDF's test_2954.pdf) list their tables
    // "head", "hhea", "loca", ... "cmap", "post", not by tag as the format asks: a lookup by
    // binary search never found the cmap. The same out of order here: the directory reversed.
    let (mut program, _) = font_of("forms/form_210966.pdf", "+ArialMT");
    let n = u16::from_be_bytes([program[4], program[5]]) as usize;
    let records: Vec<Vec<u8>> = (0..n)
        .map(|i| program[12 + 16 * i..28 + 16 * i].to_vec())
        .collect();
    for (i, record) in records.iter().rev().enumerate() {
        program[12 + 16 * i..28 + 16 * i].copy_from_slice(record);
    }
    let pdf = page_with_font(&program, |file| symbolic_font(file, ""), "(Date)");
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "Date");
    assert_eq!(out.report, Report::Complete);
}

/// The form's Arial subset as a symbolic TrueType font with a ToUnicode map of the `bfchar`
/// entries `entries`, showing `shown`: its text, and the page read in full.
fn arial_with_to_unicode(entries: &str, shown: &str) -> String {
    let (program, _) = font_of("forms/form_210966.pdf", "+ArialMT");
    let to_unicode = format!(
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap
1 begincodespacerange <0000> <FFFF> endcodespacerange
3 beginbfchar {entries} endbfchar endcmap end end"
    );
    let pdf = page_with_font_and(
        &program,
        &[to_unicode.as_bytes()],
        |file, extra| symbolic_font(file, &format!("/ToUnicode {} 0 R", extra[0])),
        shown,
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    out.pages[0].text.trim().to_string()
}

#[test]
fn a_tounicode_map_that_gives_no_character_is_passed_over() {
    // The same tax form maps codes 0 to 2 to U+0000 and nothing else: the program says the
    // rest.
    let text = arial_with_to_unicode("<0000> <0000> <0001> <0000> <0002> <0000>", "(Date)");
    assert_eq!(text, "Date");
}

#[test]
fn a_tounicode_map_of_a_few_codes_leaves_the_rest_to_the_program() {
    // The same form's QuickTypeII maps code 1 to "×", codes 0 and 2 to U+0000, nothing else:
    // the codes it leaves out are the program's to say.
    let text = arial_with_to_unicode("<0000> <0000> <0001> <00D7> <0002> <0000>", "(Date \\001)");
    assert_eq!(text, "Date ×");
}
