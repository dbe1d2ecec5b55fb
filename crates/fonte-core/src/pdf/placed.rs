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

/// Drops the glyphs from `from` on that start and end outside the box with opposite corners
/// `corners` (on the page, a point of slack; a glyph cut by the box's edge shows in part and
/// stays): a form's /BBox clips what it draws. A figure
/// included from a PDF page of the article it illustrates (PyMuPDF's test_4026.pdf) carries
/// that page's whole text, clipped to the figure: read, it repeated the body text, and the
/// overdraw check, taking its letters for copies of the page's own, dropped those
/// ("h s been d monstrated").
pub(super) fn clip_to_box(glyphs: &mut Vec<Placed>, from: usize, corners: [(f32, f32); 2]) {
    let [(x0, y0), (x1, y1)] = corners;
    let (left, right) = (x0.min(x1) - 1.0, x0.max(x1) + 1.0);
    let (bottom, top) = (y0.min(y1) - 1.0, y0.max(y1) + 1.0);
    let inside = |x: f32, y: f32| x >= left && x <= right && y >= bottom && y <= top;
    // Only the form's own glyphs are visited: a page that draws a form 100,000 times would
    // otherwise pass over all it placed before, each time.
    let start = from.min(glyphs.len());
    let mut kept = start;
    for i in start..glyphs.len() {
        let g = &glyphs[i];
        if inside(g.x, g.y) || inside(g.x_end, g.y_end) {
            glyphs.swap(kept, i);
            kept += 1;
        }
    }
    glyphs.truncate(kept);
}
