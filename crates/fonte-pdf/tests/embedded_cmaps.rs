//! A Type0 font whose /Encoding is an embedded CMap stream: its codespace says how many bytes
//! each code takes, its mappings which CID each selects (callas pdfToolbox's one-byte codes in
//! Amazon's report, PyMuPDF's test_3594.pdf: read as two-byte codes, most glyphs were lost).

mod common;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits, Report};

/// One page drawing `text` (one byte a code) in a Type0 font with the embedded CMap `cmap`,
/// a ToUnicode map of one-byte codes for the letters and space, and CIDs 1 apart in width.
fn page(cmap: &str, text: &str) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let encoding = b.stream("/Type /CMap /CMapName /Custom-CMap", cmap.as_bytes());
    let mut to_unicode = String::from(
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
         1 begincodespacerange <20> <7e> endcodespacerange\n95 beginbfchar\n",
    );
    for c in 0x20u8..=0x7e {
        to_unicode.push_str(&format!("<{c:02x}> <{:04x}>\n", c as u16));
    }
    to_unicode.push_str("endbfchar endcmap end end");
    let to_unicode = b.stream("", to_unicode.as_bytes());
    let descriptor = b.obj(
        "<< /Type /FontDescriptor /FontName /Ember /Flags 32 /FontBBox [0 -200 1000 900] \
         /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>",
    );
    let descendant = b.obj(format!(
        "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Ember /DW 500 /W [] \
         /FontDescriptor {descriptor} 0 R \
         /CIDSystemInfo << /Registry (callas) /Ordering (Custom) /Supplement 0 >> >>"
    ));
    let font = b.obj(format!(
        "<< /Type /Font /Subtype /Type0 /BaseFont /Ember /Encoding {encoding} 0 R \
         /DescendantFonts [{descendant} 0 R] /ToUnicode {to_unicode} 0 R >>"
    ));
    let content = b.stream(
        "",
        format!("BT /C1 12 Tf 72 720 Td ({text}) Tj ET").as_bytes(),
    );
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
         /Resources << /Font << /C1 {font} 0 R >> >> /Contents {content} 0 R >>"
    )
    .into_bytes();
    b.finish(catalog)
}

#[test]
fn one_byte_codes_of_an_embedded_cmap_read_one_at_a_time() {
    let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
                1 begincodespacerange <20> <7e> endcodespacerange\n\
                1 begincidchar <20> 1 endcidchar\n\
                1 begincidrange <21> <7e> 2 endcidrange\n\
                endcmap end end";
    let out = extract(&page(cmap, "Our climate pledge"), None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "Our climate pledge");
}

#[test]
fn two_byte_codespaces_keep_reading_two_bytes() {
    // The same text as two-byte codes under a CMap built on Identity-H: "\0O\0u\0r" is
    // three glyphs, not six (the ToUnicode map's keys are numbers: 0x004F is 0x4F).
    let cmap = "/Identity-H usecmap 1 begincodespacerange <0000> <ffff> endcodespacerange";
    let out = extract(&page(cmap, "\\000O\\000u\\000r"), None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "Our");
}
