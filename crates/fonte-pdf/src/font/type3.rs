//! A Type3 font's glyph frame. Its /FontMatrix maps glyph space to text space as it likes: a
//! thousandth with glyphs upright, as other fonts, or one unit per pixel with y pointing down
//! (dvips' bitmap fonts, drawn by a text matrix that is upside down as well). The interpreter
//! takes a glyph's orientation and size from its matrix, so such glyphs read as mirrored text
//! a hundredth of their real size, and every letter spacing as a word break ("may b e run").

use std::collections::HashMap;

/// The font's frame against a font of 1000-unit em: its matrix's turn and reflection, and the
/// em its glyphs' widths suggest. None where that is the usual upright 1000-unit em.
///
/// A Type3 font says nothing of its em. Where its typical glyph (the median advance) is
/// between a fifth of the font size and 1.2 times it, as in every text font (CJK glyphs are
/// one size wide), the size the text matrix gives is taken for the em; a typical glyph 45
/// times the size (dvips' pixels) says the em is elsewhere, and it is then taken as twice the
/// typical glyph.
pub(super) fn glyph_frame(
    matrix: [f32; 4],
    widths: &HashMap<u32, f32>,
    width_scale: f32,
) -> Option<[f32; 4]> {
    let [a, b, c, d] = matrix;
    let det = a * d - b * c;
    if !det.is_finite() || det == 0.0 {
        return None;
    }
    let scale = det.abs().sqrt();
    let mut advances: Vec<f32> = widths
        .values()
        .map(|&w| w * width_scale)
        .filter(|w| w.is_finite() && *w > 0.0)
        .collect();
    advances.sort_by(f32::total_cmp);
    let typical = advances.get(advances.len() / 2).copied();
    let em = typical
        .filter(|t| !(0.2..=1.2).contains(t))
        .map(|t| t / 0.5);
    let upright = a > 0.0 && d > 0.0 && b == 0.0 && c == 0.0;
    if upright && em.is_none() {
        return None;
    }
    let em = em.unwrap_or(1.0);
    Some([
        a / scale * em,
        b / scale * em,
        c / scale * em,
        d / scale * em,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_usual_type3_font_has_no_frame() {
        let widths = HashMap::from([(109, 833.0), (97, 556.0), (105, 222.0)]);
        assert_eq!(glyph_frame([0.001, 0.0, 0.0, 0.001], &widths, 0.001), None);
        // Glyphs of 83 units at 1/83 (a Korean font as pdf2docx's samples embed it): 1 em.
        let widths = HashMap::from([(1, 83.0), (2, 83.0)]);
        assert_eq!(glyph_frame([0.012, 0.0, 0.0, 0.012], &widths, 0.012), None);
    }

    #[test]
    fn a_font_drawn_upside_down_is_turned_upright() {
        let widths = HashMap::from([(97, 556.0)]);
        let frame = glyph_frame([0.001, 0.0, 0.0, -0.001], &widths, 0.001);
        assert_eq!(frame, Some([1.0, 0.0, 0.0, -1.0]));
    }

    #[test]
    fn dvips_bitmap_fonts_take_an_em_of_twice_their_typical_glyph() {
        // One unit a pixel, y down; glyphs 41 to 69 pixels wide, typically 45.
        let widths = HashMap::from([(109, 69.0), (97, 41.0), (98, 45.0)]);
        let [a, b, c, d] = glyph_frame([1.0, 0.0, 0.0, -1.0], &widths, 1.0).unwrap();
        assert!(
            (a - 90.0).abs() < 0.01 && (d + 90.0).abs() < 0.01,
            "{a} {d}"
        );
        assert_eq!((b, c), (0.0, 0.0));
    }
}
