//! Right-to-left text (Hebrew, Arabic, Syriac…) put back in the order it is read and typed. A
//! PDF places glyphs, and a line of such text comes in visual order, left to right on the page
//! (XeTeX draws it so; LuaTeX draws it glyph by glyph leftwards, which the layout sorts by
//! position): taken as drawn, every word reads backwards ("קרפ" for "פרק") and no search finds
//! it. The reordering of the Unicode bidirectional algorithm (UAX #9, through `unicode-bidi`)
//! undoes itself for the cases that matter (runs of one direction, numbers inside
//! right-to-left text, a right-to-left phrase in a left-to-right line): reordering the visual
//! line gives the logical one. A letter's combining marks stay after it. [`line_text`] is the
//! layout's text of such a line.

use unicode_bidi::{bidi_class, BidiClass, BidiInfo, Level};

use super::accents::merge_accents;
use super::interp::Placed;
use super::line_text::{clean, line_text as line_text_of};

/// Whether `c` is a strong right-to-left letter.
pub fn is_rtl(c: char) -> bool {
    matches!(bidi_class(c), BidiClass::R | BidiClass::AL)
}

/// Whether `text` holds a right-to-left letter.
pub fn has_rtl(text: &str) -> bool {
    text.chars().any(is_rtl)
}

/// Whether a line reads right to left: most of its strong letters do (a Hebrew line with one
/// English word does, an English line with one Hebrew word does not). The same rule whether
/// the line is in visual order (as drawn) or logical order (as laid out).
pub fn reads_right_to_left(line: &str) -> bool {
    let (mut rtl, mut ltr) = (0usize, 0usize);
    for c in line.chars() {
        match bidi_class(c) {
            BidiClass::R | BidiClass::AL => rtl += 1,
            BidiClass::L => ltr += 1,
            _ => {}
        }
    }
    rtl > ltr
}

/// The logical order of a line given in visual order (left to right on the page), in the
/// direction [`reads_right_to_left`] gives it.
pub fn logical(visual: &str) -> String {
    if !has_rtl(visual) {
        return visual.to_string();
    }
    let base = if reads_right_to_left(visual) {
        Level::rtl()
    } else {
        Level::ltr()
    };
    let info = BidiInfo::new(visual, Some(base));
    // Units of a character and the combining marks after it, moved together.
    let mut units: Vec<(usize, usize)> = Vec::new();
    let mut levels = Vec::new();
    for (i, c) in visual.char_indices() {
        let end = i + c.len_utf8();
        match units.last_mut() {
            Some(unit) if bidi_class(c) == BidiClass::NSM => unit.1 = end,
            _ => {
                units.push((i, end));
                levels.push(info.levels[i]);
            }
        }
    }
    BidiInfo::reorder_visual(&levels)
        .into_iter()
        .map(|u| &visual[units[u].0..units[u].1])
        .collect()
}

/// Whether the glyph is only combining marks (a vowel sign, a point, a diacritic).
pub(super) fn is_mark(g: &Placed) -> bool {
    !g.text.is_empty() && g.text.chars().all(|c| bidi_class(c) == BidiClass::NSM)
}

/// The text of a line with right-to-left letters in reading order. Its glyphs are put left to
/// right and cut where a gap is wider than [`BLOCK_GAP`] font sizes (two columns, a number in
/// the margin), and each piece is read in its own direction: a Hebrew column beside a Russian
/// one is read right to left and the Russian left to right, the pieces left to right.
pub(super) fn line_text(glyphs: Vec<Placed>) -> String {
    let glyphs = left_to_right(glyphs);
    let mut pieces: Vec<Vec<Placed>> = Vec::new();
    for g in glyphs {
        match pieces.last_mut() {
            Some(piece)
                if !is_mark(&g) && {
                    let p = piece.last().expect("pieces are never empty");
                    g.x - p.x.max(p.x_end) > BLOCK_GAP * g.size.max(p.size).max(1.0)
                } =>
            {
                pieces.push(vec![g])
            }
            Some(piece) => piece.push(g),
            None => pieces.push(vec![g]),
        }
    }
    let texts: Vec<String> = pieces
        .into_iter()
        .map(|p| logical(&clean(&line_text_of(&merge_accents(p)))))
        .collect();
    texts.join(" ")
}

/// A gap between glyphs wider than this many font sizes separates blocks of a line.
const BLOCK_GAP: f32 = 1.5;

/// A line's glyphs from left to right, each combining mark kept after the glyph it followed
/// in the content (its letter), for a line with right-to-left text whose glyphs may come in
/// either direction.
fn left_to_right(glyphs: Vec<Placed>) -> Vec<Placed> {
    let mut clusters: Vec<Vec<Placed>> = Vec::new();
    for g in glyphs {
        match clusters.last_mut() {
            Some(cluster) if is_mark(&g) => cluster.push(g),
            _ => clusters.push(vec![g]),
        }
    }
    clusters.sort_by(|a, b| a[0].x.total_cmp(&b[0].x));
    clusters.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The visual order of a logical line, as a PDF draws it (for the tests: the algorithm's
    /// own reordering, which `logical` undoes).
    fn visual(logical: &str) -> String {
        let info = BidiInfo::new(logical, None);
        let para = &info.paragraphs[0];
        info.reorder_line(para, para.range.clone()).into_owned()
    }

    #[test]
    fn a_right_to_left_line_reads_in_logical_order() {
        assert_eq!(logical("ינשה רמאמה"), "המאמר השני");
        assert_eq!(logical(".הלילח"), "חלילה.");
        // (Not every line: "и פרק 2" draws as "и 2 קרפ", which reads back as "и 2 פרק", as
        // the drawing cannot tell which the number belonged to.)
        for line in [
            "פרק 1",
            "המאמר השני, פרק 12 (הלכה)",
            "The word שלום means peace",
            "في عام 2024 كتب",
            "Глава 1 и פרק",
        ] {
            assert_eq!(logical(&visual(line)), line, "{line}");
        }
    }

    #[test]
    fn marks_stay_after_their_letter_and_left_to_right_text_is_untouched() {
        // Syriac with a mark over its first letter (U+073F), drawn left to right.
        assert_eq!(logical("ܝܟܪܟܡ\u{73f}"), "ܡ\u{73f}ܟܪܟܝ");
        let plain = "Lorem ipsum, 3.14 (dolor)";
        assert_eq!(logical(plain), plain);
    }
}
