//! Files of the print era: Acrobat Distiller 3 and Photoshop's PDF plug-in compressed every
//! stream with LZW, and pages made for a print shop carry a slug line (job name, date, page)
//! outside the crop box, often in a font of its own. Both came from the user manuals of
//! Debian's lure-of-the-temptress package (1997).

mod common;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits, Loss, PartialReason, Report};

/// LZW as PDF 32000-1, 7.4.4 writes it: codes from 9 bits up, most significant bit first, a
/// Clear-table code first and an end-of-data code last. `early` is /EarlyChange: 1 (the
/// default) widens the codes one entry before the table needs it. Kept under 4,096 entries.
fn lzw(data: &[u8], early: usize) -> Vec<u8> {
    const CLEAR: usize = 256;
    const END: usize = 257;
    let mut table: std::collections::HashMap<Vec<u8>, usize> =
        (0..=255u8).map(|b| (vec![b], b as usize)).collect();
    let (mut bits, mut pending, mut out) = (0u64, 0u32, Vec::new());
    // The reader's table grows one code behind the writer's: after the first code that
    // follows a Clear it adds an entry per code, and widens when its next entry would need it.
    let (mut width, mut reader_size, mut codes) = (9u32, 258usize, 0usize);
    let mut emit = |code: usize, out: &mut Vec<u8>| {
        bits = (bits << width) | code as u64;
        pending += width;
        while pending >= 8 {
            out.push((bits >> (pending - 8)) as u8);
            pending -= 8;
        }
        if code == CLEAR {
            codes = 0;
        } else {
            if codes > 0 && code != END {
                reader_size += 1;
            }
            codes += 1;
        }
        if reader_size + early >= 1 << width {
            width += 1;
        }
    };
    emit(CLEAR, &mut out);
    let mut word: Vec<u8> = Vec::new();
    for &byte in data {
        let mut longer = word.clone();
        longer.push(byte);
        if table.contains_key(&longer) {
            word = longer;
        } else {
            emit(table[&word], &mut out);
            table.insert(longer, table.len() + 2);
            word = vec![byte];
        }
    }
    emit(table[&word], &mut out);
    assert!(
        table.len() + 2 < 4096,
        "the test's text is too long for one table"
    );
    emit(END, &mut out);
    if pending > 0 {
        out.push((bits << (8 - pending)) as u8);
    }
    out
}

#[test]
fn the_encoder_writes_the_standards_example() {
    // PDF 32000-1, 7.4.4.2, Example 2: "-----A---B" is 256 45 258 258 65 259 66 257.
    assert_eq!(
        lzw(b"-----A---B", 1),
        [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01]
    );
}

/// Forty lines of text, long enough for the codes to grow from 9 to 11 bits.
fn forty_lines() -> (String, Vec<String>) {
    let lines: Vec<String> = (1..=40)
        .map(|i| format!("Line {i}: insert the CD of Lure of the Temptress in drive {i}"))
        .collect();
    let content = lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("BT /F1 9 Tf 40 {} Td ({l}) Tj ET\n", 760 - 12 * i))
        .collect();
    (content, lines)
}

fn one_page(content_dict: &str, content: &[u8]) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let font = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let contents = b.stream(content_dict, content);
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 \
         {font} 0 R >> >> /Contents {contents} 0 R >>"
    )
    .into_bytes();
    b.finish(catalog)
}

#[test]
fn a_page_compressed_with_lzw_is_read() {
    let (content, lines) = forty_lines();
    let encoded = lzw(content.as_bytes(), 1);
    // 254 codes of 9 bits and 512 of 10 take 926 bytes: past them the codes are 11 bits
    // wide, so both widenings were crossed.
    assert!(encoded.len() > 926, "{} bytes", encoded.len());
    for dict in [
        "/Filter /LZWDecode",
        "/Filter [/LZWDecode] /DecodeParms [<< /EarlyChange 1 >>]",
    ] {
        let out = extract(&one_page(dict, &encoded), None, Limits::default());
        assert_eq!(out.report, Report::Complete, "{dict}");
        let read: Vec<&str> = out.pages[0].text.lines().collect();
        assert_eq!(read, lines, "{dict}");
    }
}

#[test]
fn lzw_without_early_change_is_read() {
    let (content, lines) = forty_lines();
    let encoded = lzw(content.as_bytes(), 0);
    let dict = "/Filter /LZWDecode /DecodeParms << /EarlyChange 0 >>";
    let out = extract(&one_page(dict, &encoded), None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text.lines().collect::<Vec<_>>(), lines);
}

/// A page cropped to [36 36 576 756] with a line of text, and `slug` drawn at (40, y) in a
/// font none of whose glyphs has text (glyph names that map to nothing).
fn cropped_page_with_slug(y: f32) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let font = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let slug = b.obj(
        "<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Slug /Encoding << /Type /Encoding \
         /Differences [97 /g7 /g8 /g9 /g10] >> >>",
    );
    let content = format!(
        "BT /F1 12 Tf 72 700 Td (The clause survives) Tj ET\n\
         BT /F2 8 Tf 40 {y} Td (abcdabcdabcdabcd) Tj ET"
    );
    let contents = b.stream("", content.as_bytes());
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /CropBox [36 36 576 756] \
         /Resources << /Font << /F1 {font} 0 R /F2 {slug} 0 R >> >> /Contents {contents} 0 R >>"
    )
    .into_bytes();
    b.finish(catalog)
}

#[test]
fn glyphs_outside_the_crop_box_are_not_counted_as_lost() {
    // The slug line above the crop box: no viewer shows it, so nothing a reader sees is lost.
    let out = extract(&cropped_page_with_slug(770.0), None, Limits::default());
    assert_eq!(out.pages[0].text.trim(), "The clause survives");
    assert_eq!(out.report, Report::Complete);
    // The same line inside the crop box is a loss, and reported.
    let out = extract(&cropped_page_with_slug(740.0), None, Limits::default());
    match out.report {
        Report::Partial {
            reason: PartialReason::Undecodable { why, lost, .. },
            ..
        } => {
            assert_eq!(why, Loss::UnmappedGlyphNames);
            assert_eq!(lost, 16);
        }
        other => panic!("{other:?}"),
    }
}
