//! Right-to-left text (Hebrew, Arabic, Syriac…) put back in the order it is read and typed. A
//! PDF places glyphs, and a line of such text comes in visual order, left to right on the page
//! (XeTeX draws it so; LuaTeX draws it glyph by glyph leftwards, which the layout sorts by
//! position): taken as drawn, every word reads backwards ("קרפ" for "פרק") and no search finds
//! it. The reordering of the Unicode bidirectional algorithm (UAX #9, through `unicode-bidi`)
//! undoes itself for the cases that matter (runs of one direction, numbers inside
//! right-to-left text, a right-to-left phrase in a left-to-right line): reordering the visual
//! line gives the logical one. A letter's combining marks stay after it.

use unicode_bidi::{bidi_class, BidiClass, BidiInfo, Level};

/// Whether `c` is a strong right-to-left letter.
pub fn is_rtl(c: char) -> bool {
    matches!(bidi_class(c), BidiClass::R | BidiClass::AL)
}

/// Whether `text` holds a right-to-left letter.
pub fn has_rtl(text: &str) -> bool {
    text.chars().any(is_rtl)
}

/// The logical order of a line given in visual order (left to right on the page). The line's
/// direction is that of most of its strong letters: a Hebrew line with one English word is
/// read right to left, an English line with one Hebrew word left to right.
pub fn logical(visual: &str) -> String {
    if !has_rtl(visual) {
        return visual.to_string();
    }
    let (mut rtl, mut ltr) = (0usize, 0usize);
    for c in visual.chars() {
        match bidi_class(c) {
            BidiClass::R | BidiClass::AL => rtl += 1,
            BidiClass::L => ltr += 1,
            _ => {}
        }
    }
    let base = if rtl > ltr {
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
