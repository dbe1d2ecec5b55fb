//! Type3 fonts whose glyphs are named by their codes (TeX's bitmap fonts as dvips and pdfTeX
//! embed them: "a97" at code 97, no ToUnicode): their text is read, as pdftotext reads it, and
//! their glyphs are as wide as /Widths says wherever the dictionary keeps it.

mod common;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits, Loss, RejectReason, Report};

/// A one-page file drawing `text` in a Type3 font whose /Differences name `names` from code 97.
fn type3_page(names: &str, text: &str) -> Vec<u8> {
    type3_page_from(97, names, text)
}

/// The same with /Differences from code `first`.
fn type3_page_from(first: u32, names: &str, text: &str) -> Vec<u8> {
    type3_page_by(None, first, names, text)
}

/// The same, written by `producer` (the document information's /Producer).
fn type3_page_by(producer: Option<&str>, first: u32, names: &str, text: &str) -> Vec<u8> {
    // One glyph procedure (a filled square) shared by every code: the text is what matters.
    page_with_type3_font_by(
        producer,
        b"500 0 0 0 500 500 d1 0 0 500 500 re f",
        |glyph| {
            format!(
                "/FontBBox [0 0 500 500] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /sq {glyph} 0 R >> \
                 /Encoding << /Type /Encoding /Differences [{first} {names}] >> /FirstChar 0 /LastChar 255"
            )
        },
        &format!("BT /T3 12 Tf 72 720 Td ({text}) Tj ET"),
    )
}

/// A one-page file whose content draws with font /T3, a Type3 font of one glyph procedure
/// `glyph` and the entries `entries(glyph's object number)`.
fn page_with_type3_font(glyph: &[u8], entries: impl Fn(usize) -> String, content: &str) -> Vec<u8> {
    page_with_type3_font_by(None, glyph, entries, content)
}

/// The same, written by `producer`.
fn page_with_type3_font_by(
    producer: Option<&str>,
    glyph: &[u8],
    entries: impl Fn(usize) -> String,
    content: &str,
) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let glyph = b.stream("", glyph);
    let font = b.obj(format!(
        "<< /Type /Font /Subtype /Type3 {} /Resources << >> >>",
        entries(glyph)
    ));
    let content = b.stream("", content.as_bytes());
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /T3 {font} 0 R >> >> \
         /Contents {content} 0 R >>"
    )
    .into_bytes();
    match producer {
        Some(producer) => {
            let info = b.obj(format!("<< /Producer ({producer}) >>"));
            b.finish_with(catalog, &format!(" /Info {info} 0 R"))
        }
        None => b.finish(catalog),
    }
}

#[test]
fn glyphs_named_by_their_codes_read_as_those_characters() {
    let pdf = type3_page("/a97 /a98 /a99 /a100 /a101 /a102 /a103 /a104", "cabbage");
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text.trim(), "cabbage");
}

#[test]
fn accented_letters_of_the_t1_encoding_read_as_latin_1() {
    // "Rápido": 0xE1 is á in T1 and in Latin-1.
    let mut b = String::new();
    for c in 97..=104 {
        b.push_str(&format!("/a{c} "));
    }
    let pdf = type3_page(&b, "cab");
    assert_eq!(
        extract(&pdf, None, Limits::default()).pages[0].text.trim(),
        "cab"
    );
    let accented = type3_page_from(225, "/a225", "\\341");
    assert_eq!(
        extract(&accented, None, Limits::default()).pages[0]
            .text
            .trim(),
        "á"
    );
    // Where T1 is not Latin-1: "größe" is g r ö ß e, ß at 0xFF (ÿ in Latin-1). The font
    // names the codes the text uses, as dvips and pdfTeX embed a bitmap font's glyphs (one
    // named from code 0 up in a file Ghostscript wrote is numbered in order of use: below).
    let mut names = String::new();
    for c in [101, 103, 105, 108, 114, 117, 118, 215, 223, 246, 247, 255] {
        names.push_str(&format!("{c} /a{c} "));
    }
    let german = type3_page_from(0, &names, "gr\\366\\377e \\327uvre \\367il \\337");
    assert_eq!(
        extract(&german, None, Limits::default()).pages[0]
            .text
            .trim(),
        "größe Œuvre œil SS"
    );
}

#[test]
fn names_that_are_not_their_codes_stay_unknown() {
    // "g7" at code 97 is a glyph number, not a code: nothing is guessed.
    let pdf = type3_page("/g7 /g8 /g9 /g10 /g11 /g12 /g13 /g14", "cabbage");
    // ...and the file is not taken for a scan: its glyphs are there, their names say nothing.
    assert_unmapped_cabbage(&pdf);
}

/// `pdf` draws "cabbage" in glyphs whose names say nothing: not read, and reported so.
fn assert_unmapped_cabbage(pdf: &[u8]) {
    let out = extract(pdf, None, Limits::default());
    assert!(
        !out.pages[0].text.contains("cabbage"),
        "{:?}",
        out.pages[0].text
    );
    assert_eq!(
        out.report,
        Report::Rejected {
            reason: RejectReason::Undecodable {
                why: Loss::UnmappedGlyphNames,
                shown: 7
            }
        }
    );
}

#[test]
fn glyphs_named_by_their_codes_as_bare_numbers_read_as_winansi() {
    // FranklinGothic-Book as PyMuPDF's test_3186.pdf embeds it: "/65" at code 65, the Italian
    // vowels at their Latin-1 codes, tab and line feed named too.
    let names = "/9 /10 32 /32 65 /65 /66 /67 97 /97 /98 /99 224 /224 232 /232 /233";
    let pdf = type3_page_from(9, names, "ABC abc \\340 \\350\\351");
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text.trim(), "ABC abc à èé");
}

#[test]
fn glyphs_numbered_from_zero_are_no_characters() {
    // test_3362.pdf: glyphs numbered /0 to /168 in the order they were drawn, control codes
    // included; read as characters they are pdftotext's "!\"#$ !\"%&'!()".
    let names: Vec<String> = (0..=120).map(|n| format!("/{n}")).collect();
    assert_unmapped_cabbage(&type3_page_from(0, &names.join(" "), "cabbage"));
}

#[test]
fn widths_held_in_an_indirect_object_place_the_words() {
    // PdUsample.pdf: a pdfTeX bitmap font whose /Widths is an indirect object, glyph space
    // 1/100 of text space. Each letter is 0.3 em wide: "dass" ends 12 pt from the line's start
    // at 10 pt and "S" is set a quarter em after it. Read as half an em each (the width of a
    // glyph without one), "dass" overlapped the S and the two read "dassS".
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let glyph = b.stream("", b"30 0 0 0 30 50 d1 0 0 30 50 re f");
    let widths = b.obj(format!("[{}]", vec!["30"; 26].join(" ")));
    let mut names = String::new();
    for c in 65..=90 {
        names.push_str(&format!("/a{c} "));
    }
    names.push_str("97 ");
    for c in 97..=122 {
        names.push_str(&format!("/a{c} "));
    }
    let font = |first: u32| {
        format!(
            "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 30 50] /FontMatrix [0.01 0 0 0.01 0 0] \
             /CharProcs << /sq {glyph} 0 R >> /Encoding << /Type /Encoding /Differences [65 {names}] \
             >> /FirstChar {first} /LastChar {} /Widths {widths} 0 R /Resources << >> >>",
            first + 25
        )
    };
    let lower = b.obj(font(97));
    let upper = b.obj(font(65));
    let content = b.stream(
        "",
        b"BT /L 10 Tf 72 720 Td (dass) Tj 14.5 0 Td /U 10 Tf (S) Tj /L 10 Tf 5.5 0 Td (eine) Tj ET",
    );
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /L {lower} 0 R \
         /U {upper} 0 R >> >> /Contents {content} 0 R >>"
    )
    .into_bytes();
    let out = extract(&b.finish(catalog), None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "dass S eine");
}

/// A page drawn as dvips drew bitmap fonts for Acrobat Distiller 3 (graphviz's dottyguide.pdf):
/// glyph space one unit a pixel with y down (/FontMatrix [1 0 0 -1 0 0]), a text matrix of
/// 0.12 pt a pixel upside down too, each word its own string, and glyphs named by their
/// characters, in hex where PostScript names cannot hold them ("#28" for "(").
fn dvips_page(content: &str) -> Vec<u8> {
    // Every glyph 45 pixels wide, "m" 69: typically 45, an em of 90 pixels, 10.8 pt.
    let widths: Vec<&str> = (32..=121)
        .map(|c| if c == 109 { "69" } else { "45" })
        .collect();
    type3_font_page("1 0 0 -1 0 0", "0 -25 71 75", &widths.join(" "), content)
}

/// A page whose font /T3 has matrix `matrix`, bounding box `bbox`, /Widths `widths` from
/// code 32 and glyphs named by their characters (digits, stops, "#28" for "(").
fn type3_font_page(matrix: &str, bbox: &str, widths: &str, content: &str) -> Vec<u8> {
    let names = "40 /#2328 /#2329 45 /- /. 48 /0 /1 /2 /3 /4 /5 /6 /7 /8 /9 73 /I \
                 97 /a /b 101 /e 109 /m 110 /n 114 /r 116 /t /u 121 /y";
    page_with_type3_font(
        b"45 0 0 -70 45 0 d1 0 -70 45 70 re f",
        |glyph| {
            format!(
                "/FontBBox [{bbox}] /FontMatrix [{matrix}] /CharProcs << /a {glyph} 0 R >> \
                 /Encoding << /Type /Encoding /Differences [{names}] >> /FirstChar 32 /LastChar 121 \
                 /Widths [{widths}]"
            )
        },
        content,
    )
}

#[test]
fn a_bitmap_font_drawn_upside_down_reads_as_upright_words_at_its_size() {
    // Words 40 pixels apart (a third of an em); "ma" and "y" 4 apart, "be" spaced by 3 Tc:
    // read at the text matrix's size (0.12 pt) every gap was a word break, and the upside-down
    // matrix made each string mirrored text ("It may b e run").
    let pdf = dvips_page(
        "BT /T3 1 Tf 0.12 0 0 -0.12 72 700 Tm (It)Tj 130 0 TD (ma)Tj 118 0 TD (y)Tj 85 0 TD \
         3 Tc (be)Tj 136 0 TD 0 Tc (run)Tj -469 113 TD (\\(06-24-96\\).)Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    let lines: Vec<&str> = out.pages[0].text.lines().map(str::trim).collect();
    assert_eq!(lines, ["It may be run", "(06-24-96)."]);
}

#[test]
fn a_glyph_named_by_another_character_than_its_code_stays_unknown() {
    // "0" at code 97 and "#62" at code 99 name other codes than their own.
    let pdf = type3_page("/0 /b /#2362", "cab");
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "b");
}

#[test]
fn glyphs_drawn_with_y_down_and_flipped_back_read_as_upright() {
    // test_3197.pdf (a web page printed by a browser): glyph procedures drawn with y down
    // (/FontBBox [9 208 999 -732]), flipped by the font's matrix, the text matrix and the
    // page's: three reflections, yet the page shows them upright, glyph by glyph.
    let widths = vec!["556"; 90].join(" ");
    let pdf = type3_font_page(
        ".001 0 0 -.001 0 0",
        "9 208 999 -732",
        &widths,
        "1 0 0 -1 0 792 cm BT /T3 12 Tf 1 0 0 -1 72 100 Tm (r) Tj 6.672 0 Td (un) Tj \
         16.672 0 Td (by) Tj 13.344 0 Td (1) Tj 10 0 Td (tu) Tj 13.344 0 Td (be) Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "run by1 tube");
}

/// `text` (Latin-1 escapes of codes) drawn in a Type3 font naming, as pdfTeX's bitmap fonts
/// do, only the codes `codes` ("a" and the code).
fn code_named_page(codes: &[u32], text: &str) -> String {
    let names: Vec<String> = codes.iter().map(|c| format!("{c} /a{c}")).collect();
    let pdf = type3_page_from(codes[0], &names.join(" "), text);
    let out = extract(&pdf, None, Limits::default());
    out.pages[0].text.trim().to_string()
}

#[test]
fn a_bitmap_font_that_uses_the_upper_half_more_than_ascii_letters_is_cyrillic() {
    // packaging-tutorial.ru.pdf's LH fonts (T2A: А–я at 0xC0–0xFF) read as T1 were
    // "Ðóêîâîäñòâî ïî ñîçäàíèþ ïàêåòîâ Debian", reported complete. The codes of
    // "Руководство по созданию пакетов Debian": 16 in the upper half, 6 ASCII letters.
    let text = "Руководство по созданию пакетов Debian";
    assert_eq!(read_as_t2a(text), text);
}

/// The codes of `text` in a bitmap font whose upper half holds T2A's А–я, drawn and read.
fn read_as_t2a(text: &str) -> String {
    let mut codes: Vec<u32> = text
        .chars()
        .map(|c| match c {
            'А'..='я' => c as u32 - 0x410 + 0xc0,
            'Ё' => 0x9c,
            'ё' => 0xbc,
            '№' => 0x9d,
            '§' => 0x9f,
            '«' => 0xbe,
            '»' => 0xbf,
            _ => c as u32,
        })
        .collect();
    let escaped: String = codes.iter().map(|c| format!("\\{c:o}")).collect();
    codes.sort_unstable();
    codes.dedup();
    code_named_page(&codes, &escaped)
}

/// The codes of `text` (Latin-1) in a bitmap font whose upper half holds T1's letters.
fn read_as_t1(text: &str) -> String {
    let mut codes: Vec<u32> = text.chars().map(|c| c as u32).collect();
    let escaped: String = codes.iter().map(|c| format!("\\{c:o}")).collect();
    codes.sort_unstable();
    codes.dedup();
    code_named_page(&codes, &escaped)
}

#[test]
fn a_russian_text_with_more_english_letters_is_told_by_its_letters() {
    // packaging-tutorial.ru.pdf's running footer font also sets the title page's English:
    // 15 codes in the upper half, 33 ASCII letters, and it stayed Latin ("Ðóêîâîäñòâî ïî
    // ñîçäàíèþ ïàêåòîâ Debian" on every page). Its е, н, с and т (T1's å, í, ñ, ò) say Russian.
    let text =
        "Руководство по созданию пакетов Debian version packaging-tutorial@packages.debian.org";
    assert_eq!(read_as_t2a(text), text);
}

#[test]
fn the_codes_every_tex_cyrillic_encoding_shares_in_0x80_to_0xbf_are_read() {
    // Ё, ё, №, § and the quotes sit at the same codes in T2A, T2B, T2C and X2; read as lost,
    // packaging-tutorial.ru.pdf's "создаётся" came out "созда тся".
    let text = "«Всё готово», сказал Пётр Ёлкин: нет проблем, № 5 § 2";
    assert_eq!(read_as_t2a(text), text);
}

#[test]
fn spanish_and_catalan_accents_together_stay_latin() {
    // í, ñ and ò: three of the five letters that say Russian, as two Latin languages write them.
    let text = "Qué año más pequeño, señor? Això és una cançó més. Íñigo, Ñandú, Òscar";
    assert_eq!(read_as_t1(text), text);
}

#[test]
fn a_latin_text_rich_in_accents_stays_latin() {
    // French uses the most of T1's accented letters, and still more ASCII letters.
    let text = "àâçèéêëîïôùûü Où était la forêt près du château, déjà hâtive?";
    assert_eq!(read_as_t1(text), text);
}

#[test]
fn glyphs_named_by_their_codes_in_base_36_read_as_those_characters() {
    // Ghostscript 9.04's names for dvips' bitmap glyphs (Maxima's rkf45.pdf): code + 360 in
    // base 36, "CP" at 97 ... "CW" at 104.
    let pdf = type3_page("/CP /CQ /CR /CS /CT /CU /CV /CW", "cabbage");
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text.trim(), "cabbage");
    // A font of one glyph keeps Ghostscript's offset, 360, from its one name: silex.pdf's dot
    // leaders ("46 /BA").
    let dots = type3_page_from(46, "/BA", "...");
    let out = extract(&dots, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "...");
    assert_eq!(out.report, Report::Complete);
    // One name at another offset says nothing: "CP" at 98 (97 + 360 in base 36) stays unknown.
    let one = type3_page_from(98, "/CP", "b");
    assert_eq!(
        extract(&one, None, Limits::default()).pages[0].text.trim(),
        ""
    );
    // Two-letter names that do not keep one offset are no codes: "AE" and "OE" (Æ and Œ by
    // their glyph names) beside "CP" read as their names say, the rest stays unknown.
    let mixed = type3_page("/CP /AE /OE", "abc");
    assert_eq!(
        extract(&mixed, None, Limits::default()).pages[0]
            .text
            .trim(),
        "ÆŒ"
    );
}

#[test]
fn a_tounicode_entry_that_is_a_control_character_gives_way_to_the_encoding() {
    // rkf45.pdf: Ghostscript's ToUnicode maps the "c" of the font (code 99, "CR") to U+000D
    // and nothing else but one code; read as that, every "c" vanished ("fun tion").
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let glyph = b.stream("", b"500 0 0 0 500 500 d1 0 0 500 500 re f");
    let cmap = b.stream(
        "",
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapType 2 def \
          1 begincodespacerange <00> <ff> endcodespacerange \
          2 beginbfrange <5d> <5d> <2104> <63> <63> <000d> endbfrange \
          endcmap CMapName currentdict /CMap defineresource pop end end",
    );
    let font = b.obj(format!(
        "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 500] /FontMatrix [0.001 0 0 0.001 0 0] \
         /CharProcs << /sq {glyph} 0 R >> /Encoding << /Type /Encoding /BaseEncoding \
         /WinAnsiEncoding /Differences [97 /CP /CQ /CR /CS /CT /CU /CV /CW 110 /D2 /D3 116 /D8 /D9] >> \
         /FirstChar 0 /LastChar 255 /ToUnicode {cmap} 0 R /Resources << >> >>"
    ));
    let content = b.stream("", b"BT /T3 12 Tf 72 720 Td (function) Tj ET");
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /T3 {font} 0 R \
         >> >> /Contents {content} 0 R >>"
    )
    .into_bytes();
    let out = extract(&b.finish(catalog), None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "function");
}

/// The text of `bytes` drawn in a Type3 font that names each code of `widths` by itself
/// ("a12") and gives it that width (1/1000 em; every other code 0, as dvips leaves the glyphs a
/// document does not use, but the space's), with the page's report.
fn tex_layout_page(widths: &[(u32, u32)], bytes: &[u8]) -> (String, Report) {
    let mut all = [0u32; 256];
    // The space: a gap of a third of an em, no glyph named.
    all[32] = 333;
    for &(code, w) in widths {
        all[code as usize] = w;
    }
    let widths_array: Vec<String> = all.iter().map(u32::to_string).collect();
    let names: Vec<String> = widths.iter().map(|(c, _)| format!("{c} /a{c}")).collect();
    let escaped: String = bytes.iter().map(|b| format!("\\{b:03o}")).collect();
    let pdf = page_with_type3_font(
        b"500 0 0 0 500 500 d1 0 0 500 500 re f",
        |glyph| {
            format!(
                "/FontBBox [0 0 500 500] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /sq {glyph} 0 R >> \
                 /Encoding << /Type /Encoding /Differences [{}] >> /FirstChar 0 /LastChar 255 \
                 /Widths [{}]",
                names.join(" "),
                widths_array.join(" ")
            )
        },
        &format!("BT /T3 10 Tf 72 720 Td ({escaped}) Tj ET"),
    );
    let out = extract(&pdf, None, Limits::default());
    (out.pages[0].text.trim().to_string(), out.report)
}

/// Computer Modern Roman's widths (cmr10, 1/1000 em) of the letters these tests draw.
const CMR: [(u32, u32); 12] = [
    (b'a' as u32, 500),
    (b'c' as u32, 444),
    (b'd' as u32, 556),
    (b'e' as u32, 444),
    (b'f' as u32, 306),
    (b'i' as u32, 278),
    (b'l' as u32, 278),
    (b'n' as u32, 556),
    (b'o' as u32, 500),
    (b'p' as u32, 556),
    (b's' as u32, 394),
    (b't' as u32, 389),
];

#[test]
fn the_f_ligatures_and_quotes_of_an_ot1_bitmap_font_are_read_by_its_widths() {
    // silex.pdf (dvips, cmr as bitmaps): fi at 0x0C, as wide as f and i less the kern (556 of
    // 584), “ and ” at 0x5C and 0x22, – at 0x7B; without the layout "speci cation", "\SILex"".
    let mut widths = CMR.to_vec();
    widths.extend([
        (0x0C, 556),
        (0x0B, 583),
        (0x5C, 500),
        (0x22, 500),
        (0x7B, 500),
    ]);
    let (text, report) = tex_layout_page(&widths, b"\\speci\x0ccation\" o\x0Bset \x7B aside");
    assert_eq!(text, "“specification” offset – aside");
    assert_eq!(report, Report::Complete);
}

#[test]
fn the_ligatures_dashes_and_accented_letters_of_a_t1_bitmap_font_are_read_by_its_widths() {
    // The EC fonts (T1): fi at 0x1C, – at 0x15, ł at 0xAA, ź at 0xB9 (Polish "łódź" has ó at
    // 0xF3, as in Latin-1).
    let mut widths = CMR.to_vec();
    widths.extend([
        (0x1C, 556),
        (0x15, 500),
        (0xAA, 278),
        (0xB9, 444),
        (0xF3, 500),
    ]);
    let (text, report) = tex_layout_page(&widths, b"\x1Cle \x15 \xAA\xF3d\xB9");
    assert_eq!(text, "file – łódź");
    assert_eq!(report, Report::Complete);
}

#[test]
fn a_glyph_at_a_ligatures_place_that_is_not_as_wide_as_its_letters_stays_unknown() {
    // Computer Modern math italic (cmmi) puts α at 0x0B, 640 wide, where its f and f would be
    // 980. A font whose glyph there does not fit is no text font: the glyph is reported lost,
    // not read as a ligature, and ASCII stays ASCII.
    let widths = [
        (b'f' as u32, 490),
        (b'x' as u32, 572),
        (0x0B, 640),
        (0x22, 500),
    ];
    let (text, report) = tex_layout_page(&widths, b"\x0Bx\"");
    assert_eq!(text, "x\"");
    assert!(matches!(report, Report::Partial { .. }), "{report:?}");
    // Without the letters' widths nothing can be told either.
    let (text, _) = tex_layout_page(&[(0x0C, 556)], b"\x0C");
    assert_eq!(text, "");
}

#[test]
fn codes_numbered_in_order_of_use_are_reported_lost_not_read_as_ascii() {
    // Ghostscript 5.50 to 7.06 names a dvips bitmap font's glyphs "a0", "a1", … and gives them
    // codes in the order the document first uses them (GemPrimer.pdf, elhyphen's
    // anc-test.pdf): read as ASCII, "Introduction" came out as "ABCDEFGHCIEB".
    let names: String = (0..128).map(|c| format!("/a{c} ")).collect();
    let gs = Some("GNU Ghostscript 7.06");
    let pdf = type3_page_by(gs, 0, &names, "ABCDEFGHCIEB JKLMCNOPQFRS");
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "", "{:?}", out.pages[0].text);
    assert!(
        matches!(
            out.report,
            Report::Rejected {
                reason: RejectReason::Undecodable {
                    why: Loss::UnmappedGlyphNames,
                    ..
                }
            }
        ),
        "{:?}",
        out.report
    );
    // The same font shown as a glyph table, its codes in rising order, reads by its codes.
    let table = type3_page_by(gs, 0, &names, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    let out = extract(&table, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    assert_eq!(out.report, Report::Complete);
    // A font of true codes names only some (a document's glyphs): read as before.
    let some: String = (0..128)
        .filter(|c| *c != 5)
        .map(|c| format!("{c} /a{c} "))
        .collect();
    let pdf = type3_page_by(gs, 0, &some, "ABCDEFGHCIEB");
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "ABCDEFGHCIEB");
    // pdfTeX names a bitmap font's glyphs by their true codes, densely from 0 where the
    // document uses every code (wasydoc.pdf shows all of wasy10): read by its codes.
    let pdftex = type3_page_by(Some("pdfTeX-1.40.18"), 0, &names, "ABCDEFGHCIEB");
    let out = extract(&pdftex, None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "ABCDEFGHCIEB");
}
