//! One line's glyphs -> its text: a space where the gap before a glyph is a word break (a
//! gap over 0.15 em, a footnote mark before its text, a tight justified line's wider gap), a
//! soft hyphen the page draws read as a hyphen, ligatures spelled out.

use unicode_normalization::UnicodeNormalization;

use super::interp::Placed;

pub(super) fn line_text(glyphs: &[Placed]) -> String {
    // The gap before each glyph, in ems of the larger of the two glyphs.
    let gaps: Vec<f32> = glyphs
        .iter()
        .enumerate()
        .map(|(i, g)| match i.checked_sub(1).map(|j| &glyphs[j]) {
            Some(p) => (g.x - p.x_end) / g.size.max(p.size).max(1.0),
            None => 0.0,
        })
        .collect();
    let mut s = String::new();
    for (i, g) in glyphs.iter().enumerate() {
        if let Some(p) = i.checked_sub(1).map(|j| &glyphs[j]) {
            let gap = gaps[i];
            let has_space =
                s.ends_with(char::is_whitespace) || g.text.starts_with(char::is_whitespace);
            // A footnote mark or exponent (smaller and raised) followed by a letter or digit
            // of the text: "rodapé¹ Nota" is "rodapé1 Nota", "¹Nota" is "1 Nota", not "1Nota".
            // A mark may be 0.81 of the footnote's size (footnotehyper.pdf's "¹⁰Alternatively").
            let after_mark = p.size < 0.85 * g.size
                && p.y > g.y + 0.15 * g.size
                && gap > -0.05
                && g.text.starts_with(char::is_alphanumeric);
            if (gap > 0.15 || after_mark || tight_break(&s, g, &gaps, i)) && !has_space {
                s.push(' ');
            }
        }
        s.push_str(drawn_text(g));
    }
    s
}

/// The glyph's text, with a soft hyphen that the page draws read as the hyphen it shows.
/// ToUnicode maps compound hyphens to U+00AD in some producers ("pseudo-Avicenne" in
/// PyMuPDF's test_2861.pdf read "pseudoAvicenne", and the search lost the word) and line-end
/// hyphens in others, which printed stay as the page shows them and search joins again. A
/// soft hyphen without a width shows nothing and `clean` drops it.
fn drawn_text(g: &Placed) -> &str {
    // The text first: this runs for every glyph of the page.
    if g.text == "\u{AD}" && (g.x_end - g.x).hypot(g.y_end - g.y) > 0.1 * g.size {
        "-"
    } else {
        &g.text
    }
}

/// Whether the gap before glyph `i`, a tenth to 0.15 of an em, is a word break: between two
/// letters or digits, and at least twice as wide as the gaps on either side. A justified line
/// squeezed tight spaces its words that little (debian-edu-bookworm-manual.pdf's "14.13.1
/// Como", footnotehyper.pdf's "package inserts no"; a tenth of an em is pdftotext's least
/// break), while the letters of a word touch. Next to punctuation, kerning and italic
/// corrections leave gaps as wide ("Tradução:", "⟨placement⟩"), and text tracked or stretched
/// glyph by glyph has gaps as wide between all its letters (float.pdf's caption label, code
/// in a monospaced font stretched to the line): neither is a break.
fn tight_break(before: &str, g: &Placed, gaps: &[f32], i: usize) -> bool {
    let gap = gaps[i];
    let neighbours = gaps[i - 1].max(gaps.get(i + 1).copied().unwrap_or(0.0));
    gap > 0.1
        && gap > 2.0 * neighbours.max(0.02)
        && before.chars().last().is_some_and(char::is_alphanumeric)
        && g.text.starts_with(char::is_alphanumeric)
}

/// Spells out Latin ligatures, drops soft hyphens (those the page draws are hyphens by now:
/// `drawn_text`) and control characters, composes accents.
pub fn clean(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\u{FB00}' => s.push_str("ff"),
            '\u{FB01}' => s.push_str("fi"),
            '\u{FB02}' => s.push_str("fl"),
            '\u{FB03}' => s.push_str("ffi"),
            '\u{FB04}' => s.push_str("ffl"),
            '\u{FB05}' | '\u{FB06}' => s.push_str("st"),
            '\u{AD}' => {}
            '\u{A0}' | '\t' => s.push(' '),
            c if c.is_control() && c != '\n' => {}
            c => s.push(c),
        }
    }
    s.nfc().collect()
}
