//! The graphics and text state the interpreter follows, and the rules on it that decide where
//! a glyph ends.

use std::rc::Rc;

use pdf::content::TextDrawAdjusted;

use super::font::FontDecoder;
use super::matrix::M;
use super::placed::Placed;

#[derive(Clone)]
pub(super) struct GState {
    pub(super) ctm: M,
    pub(super) font: Option<Rc<FontDecoder>>,
    /// The font selected by the last `Tf` does not load (or is not in the resources).
    pub(super) font_broken: bool,
    /// Text render mode 3 (neither filled nor stroked).
    pub(super) invisible: bool,
    pub(super) size: f32,
    pub(super) char_space: f32,
    pub(super) word_space: f32,
    pub(super) scale: f32,
    pub(super) leading: f32,
    pub(super) rise: f32,
    /// The character spacing of the `TJ` being shown spaces words, not letters: its glyphs
    /// end at their advance ([`spacing_taken_back`]).
    pub(super) words_by_spacing: bool,
}

/// Ends the last placed glyph where its advance does, without the character spacing that `tm`
/// (the text matrix after it) already includes.
pub(super) fn end_at_advance(out: &mut [Placed], gs: &GState, tm: M) {
    if let Some(glyph) = out.last_mut() {
        (glyph.x_end, glyph.y_end) = M::translate(-gs.char_space * gs.scale, 0.0)
            .then(tm)
            .then(gs.ctm)
            .apply(0.0, 0.0);
    }
}

/// Whether a `TJ` array kerns back (nearly) all of the character spacing after one of its
/// strings: then the spacing spaces its words, not its letters.
pub(super) fn spacing_taken_back(array: &[TextDrawAdjusted], gs: &GState) -> bool {
    gs.char_space > 0.0
        && array.windows(2).any(|pair| match pair {
            [TextDrawAdjusted::Text(text), TextDrawAdjusted::Spacing(n)] => {
                !text.as_bytes().is_empty() && n / 1000.0 * gs.size >= 0.75 * gs.char_space
            }
            _ => false,
        })
}
