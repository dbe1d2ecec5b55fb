//! No silent loss (issue 16): a page that shows glyphs Fonte cannot turn into text is reported
//! `partial` with why and how many, and a file whose text is all undecodable is not taken for
//! a scan ("no text layer" is only for pages that show no glyph, or only invisible ones).

mod common;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits, Loss, PartialReason, RejectReason, Report};

/// A one-page file: /F1 is Helvetica, `fonts` adds more font entries (built by `build`), and
/// the content stream is `content`.
fn page(build: impl FnOnce(&mut Builder) -> String, content: &str) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let helvetica = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let fonts = build(&mut b);
    let contents = b.stream("", content.as_bytes());
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 \
         {helvetica} 0 R {fonts} >> >> /Contents {contents} 0 R >>"
    )
    .into_bytes();
    b.finish(catalog)
}

/// A Type0 font (Identity-H) over a TrueType CID font with no ToUnicode; `program` is its
/// /FontFile2 stream's object, if any.
fn cid_font(b: &mut Builder, program: Option<usize>) -> usize {
    let file = program.map_or(String::new(), |p| format!("/FontFile2 {p} 0 R"));
    let cid = b.obj(format!(
        "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Secret /CIDSystemInfo << \
         /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor << /Type \
         /FontDescriptor /FontName /ABCDEF+Secret /Flags 4 /FontBBox [0 0 1000 1000] \
         /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 {file} >> /DW 500 >>"
    ));
    b.obj(format!(
        "<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Secret /Encoding /Identity-H \
         /DescendantFonts [{cid} 0 R] >>"
    ))
}

/// `n` two-byte codes as a hex string.
fn codes(n: u16) -> String {
    let hex: String = (1..=n).map(|c| format!("{c:04X}")).collect();
    format!("<{hex}>")
}

const CLAUSE: &str = "BT /F1 12 Tf 72 720 Td (Clause one survives) Tj ET\n";

/// A file whose one font has no Unicode map: 40 glyphs, none readable. Committed as
/// `crates/fonte-pdf/tests/fixtures/text-layer/undecodable.pdf` for the end-to-end test that drops it.
fn undecodable_file() -> Vec<u8> {
    page(
        |b| format!("/F2 {} 0 R", cid_font(b, None)),
        &format!("BT /F2 12 Tf 72 700 Td {} Tj ET", codes(40)),
    )
}

#[test]
fn the_end_to_end_fixture_is_committed_as_built() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/text-layer/undecodable.pdf");
    if std::env::var_os("FONTE_UPDATE_FIXTURES").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, undecodable_file()).unwrap();
    }
    let committed = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (FONTE_UPDATE_FIXTURES=1 writes it)",
            path.display()
        )
    });
    assert!(
        committed == undecodable_file(),
        "{} differs from what this test builds",
        path.display()
    );
}

#[test]
fn a_file_whose_fonts_have_no_unicode_map_is_undecodable_not_scanned() {
    let out = extract(&undecodable_file(), None, Limits::default());
    assert_eq!(
        out.report,
        Report::Rejected {
            reason: RejectReason::Undecodable {
                why: Loss::NoUnicode,
                shown: 40
            }
        }
    );
}

#[test]
fn a_page_that_loses_part_of_its_text_is_partial_with_the_share_lost() {
    let pdf = page(
        |b| format!("/F2 {} 0 R", cid_font(b, None)),
        &format!("{CLAUSE}BT /F2 12 Tf 72 700 Td {} Tj ET", codes(10)),
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "Clause one survives");
    // "Clause one survives": 19 glyphs, 17 of them not spaces... all shown glyphs count.
    assert_eq!(
        out.report,
        Report::Partial {
            pages: vec![1],
            reason: PartialReason::Undecodable {
                why: Loss::NoUnicode,
                shown: 29,
                lost: 10
            }
        }
    );
}

#[test]
fn glyph_names_that_map_to_nothing_are_named_as_the_reason() {
    // A Type1 font whose /Differences give glyph numbers, not names ("g7"): nothing to map.
    let pdf = page(
        |b| {
            let f = b.obj(
                "<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Unknown /Encoding << /Type \
                 /Encoding /Differences [97 /g7 /g8 /g9 /g10] >> >>",
            );
            format!("/F2 {f} 0 R")
        },
        &format!("{CLAUSE}BT /F2 12 Tf 72 700 Td (abcdabcd) Tj ET"),
    );
    let out = extract(&pdf, None, Limits::default());
    match out.report {
        Report::Partial {
            pages,
            reason: PartialReason::Undecodable { why, lost, .. },
        } => {
            assert_eq!(pages, vec![1]);
            assert_eq!(why, Loss::UnmappedGlyphNames);
            assert_eq!(lost, 8);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_font_that_does_not_load_is_named_as_the_reason() {
    // /F2 is not a font dictionary at all.
    let broken_dict = page(
        |b| format!("/F2 {} 0 R", b.obj("42")),
        &format!("{CLAUSE}BT /F2 12 Tf 72 700 Td (Hidden words) Tj ET"),
    );
    // A symbolic TrueType font whose text depends on its program, which is not TrueType.
    let broken_program = page(
        |b| {
            let program = b.stream("", b"this is not a font program");
            let f = b.obj(format!(
                "<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Broken /FontDescriptor << \
                 /Type /FontDescriptor /FontName /ABCDEF+Broken /Flags 4 /FontBBox [0 0 1000 \
                 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 \
                 /FontFile2 {program} 0 R >> >>"
            ));
            format!("/F2 {f} 0 R")
        },
        &format!("{CLAUSE}BT /F2 12 Tf 72 700 Td (Hidden words) Tj ET"),
    );
    for (name, pdf) in [("dictionary", broken_dict), ("program", broken_program)] {
        let out = extract(&pdf, None, Limits::default());
        assert_eq!(out.pages[0].text.trim(), "Clause one survives", "{name}");
        match out.report {
            Report::Partial {
                pages,
                reason: PartialReason::Undecodable { why, lost, .. },
            } => {
                assert_eq!(pages, vec![1], "{name}");
                assert_eq!(why, Loss::FontNotLoaded, "{name}");
                // "Hidden words" without its space (code 32 is a gap, not a lost glyph) for the
                // program; one a byte, space included, for a font that is not there at all.
                assert!(lost == 11 || lost == 12, "{name}: {lost}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn a_few_lost_glyphs_among_much_text_do_not_make_a_page_partial() {
    // One unmappable symbol in 200 glyphs of prose: under the 1% reported.
    let prose = "Clause one survives and so does the rest of this sentence. ".repeat(4);
    let pdf = page(
        |b| {
            let f = b.obj(
                "<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Unknown /Encoding << /Type \
                 /Encoding /Differences [97 /g7] >> >>",
            );
            format!("/F2 {f} 0 R")
        },
        &format!("BT /F1 10 Tf 40 720 Td ({prose}) Tj ET BT /F2 10 Tf 40 700 Td (a) Tj ET"),
    );
    assert_eq!(
        extract(&pdf, None, Limits::default()).report,
        Report::Complete
    );
}

#[test]
fn invisible_glyphs_that_do_not_decode_leave_a_page_without_a_text_layer() {
    // A scan with an invisible layer of undecodable glyphs: no text layer, as before.
    let pdf = page(
        |b| format!("/F2 {} 0 R", cid_font(b, None)),
        &format!("BT 3 Tr /F2 12 Tf 72 700 Td {} Tj ET", codes(40)),
    );
    assert_eq!(
        extract(&pdf, None, Limits::default()).report,
        Report::Rejected {
            reason: RejectReason::NoTextLayer
        }
    );
    // Invisible text that decodes (an OCR layer) is read, and text render mode 7 (clip only)
    // no longer stops the page.
    let ocr = page(
        |_| String::new(),
        "BT 3 Tr /F1 12 Tf 72 700 Td (Invisible layer) Tj ET BT 7 Tr /F1 12 Tf 72 680 Td \
         (Clipped words) Tj ET",
    );
    let out = extract(&ocr, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert!(out.pages[0].text.contains("Invisible layer"));
    assert!(out.pages[0].text.contains("Clipped words"));
}

#[test]
fn reports_with_lost_glyphs_round_trip_and_old_readers_keep_the_rest() {
    let report = Report::Partial {
        pages: vec![2, 5],
        reason: PartialReason::Undecodable {
            why: Loss::FontNotLoaded,
            shown: 900,
            lost: 120,
        },
    };
    let json = serde_json::to_string(&report).unwrap();
    assert_eq!(serde_json::from_str::<Report>(&json).unwrap(), report);
    // A reason a later version adds is read as Other, not as an error.
    let later: Report =
        serde_json::from_str(r#"{"partial":{"pages":[1],"reason":"from_the_future"}}"#).unwrap();
    assert_eq!(
        later,
        Report::Partial {
            pages: vec![1],
            reason: PartialReason::Other
        }
    );
}

#[test]
fn a_hyphen_drawn_through_the_standard_or_winansi_encoding_is_kept() {
    // pdf_encoding gives StandardEncoding's 0x2D and WinAnsiEncoding's 0xAD ("hyphen") as the
    // soft hyphen, which the layout drops: groff's "picture-drawing" read "picturedrawing"
    // (grdemo-doc.pdf, Times-Roman without /Widths or /Encoding).
    let pdf = page(
        |b| {
            let f = b.obj(
                "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /Type \
                 /Encoding /BaseEncoding /WinAnsiEncoding >> >>",
            );
            format!("/F2 {f} 0 R")
        },
        "BT /F1 12 Tf 72 720 Td (picture-drawing) Tj ET BT /F2 12 Tf 72 700 Td (non\\255standard) Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert!(
        out.pages[0].text.contains("picture-drawing"),
        "{}",
        out.pages[0].text
    );
    assert!(
        out.pages[0].text.contains("non-standard"),
        "{}",
        out.pages[0].text
    );
}

#[test]
fn a_soft_hyphen_the_page_draws_is_a_hyphen() {
    // ToUnicode maps the hyphen glyph to U+00AD (PyMuPDF's test_2861.pdf: "pseudoAvicenne"
    // for the title's "pseudo-Avicenne"); a soft hyphen of no width shows nothing.
    let pdf = page(
        |b| {
            let to_unicode = b.stream(
                "",
                b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Soft def \
                  1 begincodespacerange <00> <FF> endcodespacerange 3 beginbfrange \
                  <20> <2C> <0020> <2D> <2D> <00AD> <2E> <7D> <002E> endbfrange 1 beginbfchar \
                  <7E> <00AD> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end",
            );
            let mut widths = vec!["500"; 95];
            widths[0x7E - 32] = "0";
            let f = b.obj(format!(
                "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /LastChar 126 \
                 /Widths [{}] /ToUnicode {to_unicode} 0 R >>",
                widths.join(" ")
            ));
            format!("/F2 {f} 0 R")
        },
        "BT /F2 12 Tf 72 720 Td (pseudo-Avicenne) Tj 0 -14 Td (impossibil-) Tj 0 -14 Td (ity of \
         infor~mation) Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(
        out.pages[0].text,
        "pseudo-Avicenne\nimpossibil-\nity of information"
    );
}

#[test]
fn a_font_whose_widths_are_all_zero_does_not_advance() {
    // kotex's yettext.pdf draws each Hangul syllable as a consonant of one font and a vowel of
    // another whose /Widths are all 0 (its glyphs lie left of their origin, over the
    // consonant); given a default width, each vowel ate the space after it and the words of
    // a line ran together.
    let pdf = page(
        |b| {
            let to_unicode = b.stream(
                "",
                b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Vowel \
                  def 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <69> \
                  <1175> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end",
            );
            let widths = vec!["0"; 95].join(" ");
            let f = b.obj(format!(
                "<< /Type /Font /Subtype /Type1 /BaseFont /OLXCJN+ogulim51 /FirstChar 32 \
                 /LastChar 126 /Widths [{widths}] /ToUnicode {to_unicode} 0 R >>"
            ));
            format!("/F3 {f} 0 R")
        },
        // Each glyph placed from the line's start, as yettext.pdf places them: "o" is 5.56
        // wide, the vowel 0, and the next word starts a third of an em after it.
        "BT /F1 10 Tf 72 720 Td (o) Tj /F3 10 Tf 5.56 0 Td (i) Tj /F1 10 Tf 3.3 0 Td (mo) Tj \
         /F3 10 Tf 13.89 0 Td (i) Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text, "o\u{1175} mo\u{1175}");
}

#[test]
fn a_unicode_range_counts_up_across_a_byte() {
    // Droid Sans Fallback's ToUnicode as cairo writes it (PyMuPDF's test_5049.pdf): the range
    // `<7300> <73FF> <C6DC>` runs past U+C6FF, and its code 7398 is 이 (U+C774), which the
    // `pdf` crate left unmapped by stopping where the last byte wrapped.
    let pdf = page(
        |b| {
            let to_unicode = b.stream(
                "",
                b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Hangul \
                  def 1 begincodespacerange <0000> <FFFF> endcodespacerange 2 beginbfrange \
                  <6F00> <6FFF> <C2DC> <7300> <73FF> <C6DC> endbfrange endcmap CMapName \
                  currentdict /CMap defineresource pop end end",
            );
            let font = cid_font(b, None);
            let type0 = String::from_utf8(b.objects[font - 1].clone()).unwrap();
            b.objects[font - 1] = type0
                .replace(">>", &format!("/ToUnicode {to_unicode} 0 R >>"))
                .into_bytes();
            format!("/F2 {font} 0 R")
        },
        "BT /F2 36 Tf 72 700 Td <6F1C7398> Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "싸이");
}

/// A non-embedded CJK font under a predefined Unicode CMap, as iText writes Chinese and
/// Japanese text (STSong-Light, UniGB-UCS2-H; HeiseiMin-W3, UniJIS-UTF16-H), with no ToUnicode.
fn unicode_cmap_font(b: &mut Builder, cmap: &str, ordering: &str) -> usize {
    let cid = b.obj(format!(
        "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << \
         /Registry (Adobe) /Ordering ({ordering}) /Supplement 4 >> /FontDescriptor << /Type \
         /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] \
         /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >> /DW 1000 \
         /W [1 95 500] >>"
    ));
    b.obj(format!(
        "<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light-{cmap} /Encoding /{cmap} \
         /DescendantFonts [{cid} 0 R] >>"
    ))
}

#[test]
fn the_codes_of_a_unicode_cmap_are_read_as_the_characters_they_are() {
    // "中文 PDF" in UCS-2; "𠀋 日本" in UTF-16, whose first character is a surrogate pair;
    // "日本 PDF𠀋" in UTF-8.
    let cases = [
        (
            "UniGB-UCS2-H",
            "GB1",
            "<4E2D6587002000500044004600>",
            "中文 PDF",
        ),
        (
            "UniJIS-UTF16-H",
            "Japan1",
            "<D840DC0B002065E5672C>",
            "𠀋 日本",
        ),
        // Adobe's UTF-8 CMaps, one to four bytes a code.
        (
            "UniJIS-UTF8-H",
            "Japan1",
            "<E697A5E69CAC20504446F0A0808B>",
            "日本 PDF𠀋",
        ),
    ];
    for (cmap, ordering, hex, text) in cases {
        let pdf = page(
            |b| format!("/F2 {} 0 R", unicode_cmap_font(b, cmap, ordering)),
            &format!("{CLAUSE}BT /F2 12 Tf 72 700 Td {hex} Tj ET"),
        );
        let out = extract(&pdf, None, Limits::default());
        assert_eq!(out.report, Report::Complete, "{cmap}");
        assert!(
            out.pages[0].text.contains(text),
            "{cmap}: {:?}",
            out.pages[0].text
        );
    }
}

#[test]
fn a_font_named_in_another_encoding_than_utf8_loads() {
    // has-bad-fonts.pdf (PyMuPDF's tests): a Chinese font's names in GBK ("#CB#CE" is 宋):
    // the dictionary failed to parse, and its text was reported lost with the font.
    let pdf = page(
        |b| {
            let f = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /#CB#CE#CC#E5 >>");
            format!("/#CB#CE {f} 0 R")
        },
        "BT /#CB#CE 12 Tf 72 700 Td (Hello) Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "Hello");
}

#[test]
fn a_negative_code_in_differences_does_not_panic() {
    // Found by the mutation fuzz test (stop 34): the `pdf` crate counted codes from -1 read as
    // u32::MAX and overflowed at the next name. The names from code -1 are no code's: nothing
    // is mapped, and the rest of the page reads.
    let pdf = page(
        |b| {
            let f = b.obj(
                "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type \
                 /Encoding /Differences [-1 /a /b 98 /c] >> >>",
            );
            format!("/F2 {f} 0 R")
        },
        "BT /F1 10 Tf 40 720 Td (Survives) Tj ET BT /F2 10 Tf 40 700 Td (b) Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text, "Survives\n\nc");
}
