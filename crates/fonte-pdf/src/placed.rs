//! What the interpreter gives the layout: one glyph where the page draws it.

use super::matrix::M;

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

/// Drops the glyphs from `from` on that start and end outside the form's box `bbox`
/// (`[left, bottom, right, top]` in the form's own space, which `to_page` maps onto the page;
/// a point of slack: a glyph cut by the box's edge shows in part and stays): a form's /BBox
/// clips what it draws. A figure included from a PDF page of the article it illustrates
/// (PyMuPDF's test_4026.pdf) carries that page's whole text, clipped to the figure: read, it
/// repeated the body text, and the overdraw check, taking its letters for copies of the
/// page's own, dropped those ("h s been d monstrated"). The test is made in the form's space
/// because a turned form's box is not upright on the page: two corners taken to the page
/// made a thinner box, which cut the first letters off the lines of a flyer set at 30°
/// (PyMuPDF's test_2645_2.pdf, "r Teams" for "Our Teams").
pub(super) fn clip_to_box(glyphs: &mut Vec<Placed>, from: usize, bbox: [f32; 4], to_page: M) {
    let Some(to_form) = to_page.inverse() else {
        glyphs.truncate(from.min(glyphs.len()));
        return;
    };
    // One point on the page in the form's units, however the form is scaled.
    let [a, b, c, d, ..] = to_form.0;
    let slack = (a * a + b * b).sqrt().max((c * c + d * d).sqrt());
    let [x0, y0, x1, y1] = bbox;
    let (left, right) = (x0.min(x1) - slack, x0.max(x1) + slack);
    let (bottom, top) = (y0.min(y1) - slack, y0.max(y1) + slack);
    let inside = |x: f32, y: f32| {
        let (x, y) = to_form.apply(x, y);
        x >= left && x <= right && y >= bottom && y <= top
    };
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
