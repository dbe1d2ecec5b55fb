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
    let word_gap = word_gap(glyphs, &gaps);
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
            let wide = gap > word_gap || gap > 0.15 && !(is_letter(&p.text) && is_letter(&g.text));
            if (wide || after_mark || tight_break(&s, g, &gaps, i)) && !has_space {
                s.push(' ');
            }
        }
        s.push_str(drawn_text(g));
    }
    s
}

/// The gap over which two letters of a line are two words, in ems: 0.15, or more on a line
/// whose letters are spaced out by the kerns of a TJ array rather than by character spacing
/// (which glyphs end after: `interp`). Such a line spaces nearly all its letters alike, a
/// tenth of an em and more, where an unspaced line's letters touch; its words are that spacing
/// and a space apart. So where three quarters of the gaps between two letters of the line are
/// 0.08 em or more and half are 0.2 em or less, a break is a gap over the median and 0.12 em.
/// Where only some letters are apart, they are words (math's "ln x dx", "kg m s−2" in thin
/// spaces, pt-lshort.pdf); and letters only count: a row of digits set apart is a row of
/// numbers. Found on MusiXTeX's titles, small capitals tracked by kerns of 0.13 to 0.15 em
/// ("Adag i o" for "Adagio", barsant2.pdf of TeX Live's autosp), and code listings set in
/// fixed columns ("I t a l i c F o n t").
fn word_gap(glyphs: &[Placed], gaps: &[f32]) -> f32 {
    let mut between: Vec<f32> = glyphs
        .windows(2)
        .zip(gaps.get(1..).unwrap_or_default())
        .filter(|(pair, _)| is_letter(&pair[0].text) && is_letter(&pair[1].text))
        .map(|(_, &gap)| gap)
        .collect();
    if between.len() < 3 {
        return 0.15;
    }
    between.sort_by(f32::total_cmp);
    let (quarter, median) = (between[between.len() / 4], between[between.len() / 2]);
    if quarter >= 0.08 && median <= 0.2 {
        median + 0.12
    } else {
        0.15
    }
}

/// Whether a glyph's text is one letter (or a ligature of letters) of an alphabet that spaces
/// its words: Latin, Greek, Cyrillic, Armenian. (CJK lines are justified glyph by glyph and
/// read as the other readers read them; Arabic and Indic letters join.)
fn is_letter(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphabetic() && c < '\u{590}')
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
