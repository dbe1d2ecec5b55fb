//! TeX accents drawn as glyphs of their own (a spacing acute moved back over its letter):
//! merged onto the letter they sit over, as combining marks composed with it.

use unicode_normalization::UnicodeNormalization;

use super::interp::Placed;

/// Spacing accents TeX and others draw as their own glyph, with the combining mark each becomes.
fn combining_for(accent: &str) -> Option<char> {
    Some(match accent {
        "´" | "\u{2CA}" | "\u{301}" => '\u{301}',
        "`" | "\u{2CB}" | "\u{300}" => '\u{300}',
        "^" | "ˆ" | "\u{302}" => '\u{302}',
        "~" | "˜" | "\u{303}" => '\u{303}',
        "¨" | "\u{308}" => '\u{308}',
        "¸" | "\u{327}" => '\u{327}',
        "˘" | "\u{306}" => '\u{306}',
        "ˇ" | "\u{30C}" => '\u{30C}',
        "˙" | "\u{307}" => '\u{307}',
        "˚" | "\u{30A}" => '\u{30A}',
        "˝" | "\u{30B}" => '\u{30B}',
        "˛" | "\u{328}" => '\u{328}',
        "¯" | "ˉ" | "\u{304}" => '\u{304}',
        _ => return None,
    })
}

/// Merges accent glyphs onto the letter they sit over: of the letters before and after the
/// accent, the one whose centre is nearest the accent's centre, if the accent is over it.
pub(super) fn merge_accents(glyphs: Vec<Placed>) -> Vec<Placed> {
    let centre = |g: &Placed| (g.x + g.x_end) / 2.0;
    let is_letter =
        |g: &Placed| g.text.chars().all(char::is_alphabetic) && combining_for(&g.text).is_none();
    let mut marks: Vec<Vec<char>> = vec![Vec::new(); glyphs.len()];
    let mut dropped = vec![false; glyphs.len()];
    for i in 0..glyphs.len() {
        let Some(mark) = combining_for(&glyphs[i].text) else {
            continue;
        };
        let accent = &glyphs[i];
        let cx = centre(accent);
        // Over the letter: TeX moves back so that the two boxes overlap (by their whole width
        // but for an italic's slant). A grave used as an opening quote (`stable') or a tilde
        // in code (~user) sits beside the letter and is not an accent.
        let near = |j: usize| {
            let g = &glyphs[j];
            let overlap = g.x_end.min(accent.x_end) - g.x.max(accent.x);
            let narrower = (g.x_end - g.x).min(accent.x_end - accent.x);
            let over = narrower > 0.0 && overlap >= 0.3 * narrower;
            (is_letter(g) && over).then(|| (centre(g) - cx).abs())
        };
        let prev = i.checked_sub(1).and_then(|j| near(j).map(|d| (j, d)));
        let next = (i + 1 < glyphs.len())
            .then(|| near(i + 1).map(|d| (i + 1, d)))
            .flatten();
        let target = match (prev, next) {
            (Some(p), Some(n)) => Some(if n.1 < p.1 { n.0 } else { p.0 }),
            (Some(p), None) => Some(p.0),
            (None, Some(n)) => Some(n.0),
            (None, None) => None,
        };
        if let Some(t) = target {
            marks[t].push(mark);
            dropped[i] = true;
        }
    }
    glyphs
        .into_iter()
        .zip(marks)
        .zip(dropped)
        .filter(|(_, d)| !d)
        .map(|((mut g, m), _)| {
            if !m.is_empty() {
                // TeX puts accents on a dotless i or j: the accented letter is the dotted one.
                let base = g.text.replace('ı', "i").replace('ȷ', "j");
                g.text = base.chars().chain(m).collect::<String>().nfc().collect();
            }
            g
        })
        .collect()
}
