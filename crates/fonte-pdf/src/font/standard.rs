//! The standard-14 fonts' advance widths, from Adobe's AFM files: a font that names one and
//! omits /Widths relies on them.

use std::collections::HashMap;

use super::names::glyph_name_text;

/// Advance widths (1/1000 em) by character for a standard-14 font named `base_font` (subset
/// prefix and style suffixes like ",Bold" tolerated), from the Adobe AFM files. A font that
/// omits /Widths relies on these; guessing instead breaks word spacing.
pub(super) fn standard_widths(base_font: &str) -> Option<HashMap<char, f32>> {
    use pdf_core_14_font_afms as afm;
    let name = base_font
        .rsplit('+')
        .next()
        .unwrap_or(base_font)
        .replace(',', "-");
    let bold = name.contains("Bold");
    let italic = name.contains("Italic") || name.contains("Oblique");
    let file = match name.split('-').next().unwrap_or("") {
        "Helvetica" | "Arial" | "ArialMT" => match (bold, italic) {
            (false, false) => afm::HELVETICA,
            (true, false) => afm::HELVETICA_BOLD,
            (false, true) => afm::HELVETICA_OBLIQUE,
            (true, true) => afm::HELVETICA_BOLD_OBLIQUE,
        },
        "Times" | "TimesNewRoman" | "TimesNewRomanPS" | "TimesNewRomanPSMT" => match (bold, italic)
        {
            (false, false) => afm::TIMES_ROMAN,
            (true, false) => afm::TIMES_BOLD,
            (false, true) => afm::TIMES_ITALIC,
            (true, true) => afm::TIMES_BOLD_ITALIC,
        },
        "Courier" | "CourierNew" | "CourierNewPSMT" => match (bold, italic) {
            (false, false) => afm::COURIER,
            (true, false) => afm::COURIER_BOLD,
            (false, true) => afm::COURIER_OBLIQUE,
            (true, true) => afm::COURIER_BOLD_OBLIQUE,
        },
        "Symbol" => afm::SYMBOL,
        "ZapfDingbats" => afm::ZAPF_DINGBATS,
        _ => return None,
    };
    // Char metric lines read "C 32 ; WX 278 ; N space ; B ...".
    let mut out = HashMap::new();
    for line in file.lines().filter(|l| l.starts_with("C ")) {
        let field = |key: &str| {
            line.split(';')
                .map(str::trim)
                .find_map(|f| f.strip_prefix(key))
                .map(str::trim)
        };
        if let (Some(w), Some(n)) = (field("WX "), field("N ")) {
            if let (Ok(w), Some(text)) = (w.parse::<f32>(), glyph_name_text(n)) {
                if let Some(c) = text.chars().next() {
                    out.insert(c, w);
                }
            }
        }
    }
    // The Adobe Glyph List gives some names two characters, and pdf_encoding's tables pick the
    // other one: StandardEncoding's code 32 "space" reads U+00A0, WinAnsi's 0xA0 "nbspace" too,
    // "hyphen" U+00AD… A width looked up by the encoding's character missed and fell back to
    // half an em: every space of a groff/Ghostscript document in Times twice as wide, each line
    // drifting right until its words ran into each other (grdemo-doc.pdf, issue 16).
    for (named, alias) in AGL_ALIASES {
        if let Some(&w) = out.get(&named) {
            out.entry(alias).or_insert(w);
        }
    }
    Some(out)
}

/// (the character a glyph name reads, another character the AGL gives the same glyph).
const AGL_ALIASES: [(char, char); 8] = [
    (' ', '\u{A0}'),
    ('-', '\u{AD}'),
    ('\u{2044}', '\u{2215}'),
    ('\u{B7}', '\u{2219}'),
    ('\u{AF}', '\u{2C9}'),
    ('\u{3A9}', '\u{2126}'),
    ('\u{394}', '\u{2206}'),
    ('\u{B5}', '\u{3BC}'),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_fonts_have_their_afm_widths() {
        let helv = standard_widths("Helvetica").unwrap();
        assert_eq!(helv.get(&' '), Some(&278.0));
        assert_eq!(helv.get(&'W'), Some(&944.0));
        let bold = standard_widths("ABCDEF+Arial,Bold").unwrap();
        assert_eq!(bold.get(&'i'), Some(&278.0));
        assert_eq!(
            standard_widths("Courier-Oblique").unwrap().get(&'m'),
            Some(&600.0)
        );
        assert!(standard_widths("CMR10").is_none());
    }

    #[test]
    fn every_character_the_standard_encodings_give_has_its_width() {
        // Whatever character pdf_encoding reads for a code, the width is the glyph's.
        let times = standard_widths("Times-Roman").unwrap();
        for table in [&pdf_encoding::STANDARD, &pdf_encoding::WINANSI] {
            for code in 32..=255u8 {
                if let Some(c) = table.get(code).filter(|c| *c != '\u{7F}') {
                    assert!(times.contains_key(&c), "code {code}: {c:?}");
                }
            }
        }
        assert_eq!(times.get(&'\u{A0}'), Some(&250.0));
        assert_eq!(times.get(&'\u{AD}'), times.get(&'-'));
    }
}
