//! The transformation matrices the interpreter composes (PDF's row-vector convention), the
//! direction text runs in, and the matrix that draws an annotation's appearance on the page.

use pdf::content::Matrix;

#[derive(Clone, Copy)]
pub(super) struct M(pub(super) [f32; 6]);

impl M {
    pub(super) const IDENTITY: M = M([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    pub(super) fn from(m: &Matrix) -> M {
        M([m.a, m.b, m.c, m.d, m.e, m.f])
    }

    /// `self × other` in PDF's row-vector convention (apply self first).
    pub(super) fn then(self, o: M) -> M {
        let [a, b, c, d, e, f] = self.0;
        let [oa, ob, oc, od, oe, of] = o.0;
        M([
            a * oa + b * oc,
            a * ob + b * od,
            c * oa + d * oc,
            c * ob + d * od,
            e * oa + f * oc + oe,
            e * ob + f * od + of,
        ])
    }

    pub(super) fn translate(x: f32, y: f32) -> M {
        M([1.0, 0.0, 0.0, 1.0, x, y])
    }

    pub(super) fn apply(self, x: f32, y: f32) -> (f32, f32) {
        let [a, b, c, d, e, f] = self.0;
        (x * a + y * c + e, x * b + y * d + f)
    }

    /// The matrix that undoes this one; `None` when it flattens the plane (a form drawn with a
    /// zero scale shows nothing).
    pub(super) fn inverse(self) -> Option<M> {
        let [a, b, c, d, e, f] = self.0;
        let det = a * d - b * c;
        if !det.is_normal() {
            return None;
        }
        let (ia, ib, ic, id) = (d / det, -b / det, -c / det, a / det);
        Some(M([ia, ib, ic, id, -(e * ia + f * ic), -(e * ib + f * id)]))
    }
}

/// The direction of text drawn with the glyph matrix `[a b c d]`, in quarter turns (see
/// [`Placed::turns`]): the baseline along ±x or ±y within 1%, the glyphs not mirrored.
pub(super) fn quarter_turns(a: f32, b: f32, c: f32, d: f32) -> Option<u8> {
    let straight = |along: f32, across: f32| along.abs() > 0.0 && across.abs() < 0.01 * along.abs();
    if a * d - b * c <= 0.0 {
        return None;
    }
    if straight(a, b) {
        Some(if a > 0.0 { 0 } else { 2 })
    } else if straight(b, a) {
        Some(if b > 0.0 { 1 } else { 3 })
    } else {
        None
    }
}

/// Whether the glyph matrix `[a b c d]` mirrors glyphs on a horizontal baseline: `\reflectbox`
/// (the reversed E of the XeTeX logo), a word flipped upside down. Such a glyph sits in its line
/// like an upright one, running leftwards from its origin when reversed.
pub(super) fn mirrored_on_a_line(a: f32, b: f32, c: f32, d: f32) -> bool {
    a * d - b * c < 0.0 && b.abs() < 0.01 * a.abs() && c.abs() < 0.01 * d.abs()
}

/// A transformation matrix given from outside the interpreter (the page's starting CTM).
#[derive(Debug, Clone, Copy)]
pub struct M0(pub [f32; 6]);

impl M0 {
    /// The identity.
    pub const IDENTITY: M0 = M0([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
}

/// The matrix that draws an annotation's appearance form (with its own /Matrix and /BBox)
/// into the annotation's /Rect on the page (PDF 32000-1, 12.5.5).
pub fn annotation_matrix(
    form_matrix: Option<&Matrix>,
    bbox: &pdf::object::Rectangle,
    rect: &pdf::object::Rectangle,
) -> M0 {
    let m = form_matrix.map_or(M::IDENTITY, M::from);
    let corners = [
        (bbox.left, bbox.bottom),
        (bbox.right, bbox.bottom),
        (bbox.left, bbox.top),
        (bbox.right, bbox.top),
    ];
    let pts: Vec<(f32, f32)> = corners.iter().map(|&(x, y)| m.apply(x, y)).collect();
    let (x0, x1) = pts
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = pts
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let (rx0, rx1) = (rect.left.min(rect.right), rect.left.max(rect.right));
    let (ry0, ry1) = (rect.bottom.min(rect.top), rect.bottom.max(rect.top));
    let sx = if x1 > x0 {
        (rx1 - rx0) / (x1 - x0)
    } else {
        1.0
    };
    let sy = if y1 > y0 {
        (ry1 - ry0) / (y1 - y0)
    } else {
        1.0
    };
    let a = M([sx, 0.0, 0.0, sy, rx0 - x0 * sx, ry0 - y0 * sy]);
    M0(m.then(a).0)
}

/// The direction of a glyph's line: its glyph matrix's, a quarter turn clockwise more where
/// the font writes vertically (the pen moves down the glyph's own y axis).
pub(super) fn turned(turns: Option<u8>, vertical: bool) -> Option<u8> {
    match vertical {
        true => turns.map(|t| (t + 3) % 4),
        false => turns,
    }
}
