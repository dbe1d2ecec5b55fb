//! What the interpreter gives the layout: one glyph where the page draws it.

/// A glyph placed on the page, in default user space (points, y up).
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// Text of the glyph ("" when the font does not say).
    pub text: String,
    /// Origin x.
    pub x: f32,
    /// Baseline y.
    pub y: f32,
    /// Where the next glyph would start (x), after the advance.
    pub x_end: f32,
    /// Where the next glyph would start (y): the baseline's y for upright text.
    pub y_end: f32,
    /// Font size on the page.
    pub size: f32,
    /// The text's direction in quarter turns counter-clockwise: 0 upright, 1 running upwards,
    /// 2 upside down, 3 running downwards; `None` when skewed or mirrored.
    pub turns: Option<u8>,
    /// Drawn by Fonte from a form field's value (`fields`), once: never a copy of another
    /// glyph, so the overdraw check leaves it (list boxes that overflow their boxes draw
    /// the same letter where another list's item does).
    pub synthesized: bool,
}
