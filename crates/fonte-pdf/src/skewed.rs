//! Text at angles other than the four right ones: a label along a slanted axis, words set on
//! a circle's arc, an OCR layer over a scan that was never straightened (a line one degree
//! off the horizontal climbs more than its own height across the page), mirrored text. No
//! common frame turns such text upright, so it is read as runs: glyphs that follow one
//! another in content order along their own baselines, each run unrolled onto a straight line
//! and laid out like any upright line. pdftotext and MuPDF list this text too; until stop 33
//! Fonte left it out without a word in its report (drv-guide.pdf's radial trees).

use super::placed::Placed;

/// Splits skewed glyphs (in content order) into runs: a glyph continues the run when it
/// starts near where the last one ended, along the last one's direction (a space's worth of
/// gap or a little overlap, not across its baseline) and turned less than 30° from it.
pub(super) fn runs(glyphs: Vec<Placed>) -> Vec<Vec<Placed>> {
    let mut runs: Vec<Vec<Placed>> = Vec::new();
    let mut heading = (1.0, 0.0);
    for g in glyphs {
        let own = direction(&g).unwrap_or(heading);
        let joins = runs.last().and_then(|r| r.last()).is_some_and(|last| {
            let (along, across) = offset(last, &g, heading);
            let size = last.size.max(g.size);
            own.0 * heading.0 + own.1 * heading.1 > 0.87
                && across.abs() < 0.6 * size
                && along > -0.6 * size
                && along < 6.0 * size
        });
        match runs.last_mut() {
            Some(run) if joins => run.push(g),
            _ => runs.push(vec![g]),
        }
        heading = own;
    }
    runs
}

/// The run's glyphs on one straight, upright baseline: each glyph as far along (and across)
/// from the end of the glyph before as it is on the page, in that glyph's frame. A drift
/// across of under a sixth of an em is the curve of an arc, not a raised glyph, and is
/// dropped, so a long arc stays one line.
pub(super) fn unrolled(run: &[Placed]) -> Vec<Placed> {
    let mut out: Vec<Placed> = Vec::with_capacity(run.len());
    let mut heading = (1.0, 0.0);
    for (i, g) in run.iter().enumerate() {
        let advance = ((g.x_end - g.x).powi(2) + (g.y_end - g.y).powi(2)).sqrt();
        let (x, y) = match i.checked_sub(1) {
            Some(p) => {
                let (along, across) = offset(&run[p], g, heading);
                let across = if across.abs() < g.size / 6.0 {
                    0.0
                } else {
                    across
                };
                (out[p].x_end + along, out[p].y + across)
            }
            None => (0.0, 0.0),
        };
        heading = direction(g).unwrap_or(heading);
        out.push(Placed {
            x,
            y,
            x_end: x + advance,
            y_end: y,
            turns: Some(0),
            ..g.clone()
        });
    }
    out
}

/// The run's box on the page: every glyph's origin and end, and the same raised by its size
/// across its baseline (a highlight needs no more).
pub(super) fn bounds(run: &[Placed]) -> [f32; 4] {
    let mut heading = (1.0, 0.0);
    run.iter()
        .fold([f32::MAX, f32::MAX, f32::MIN, f32::MIN], |b, g| {
            heading = direction(g).unwrap_or(heading);
            let up = (-heading.1 * g.size, heading.0 * g.size);
            [(g.x, g.y), (g.x_end, g.y_end), (g.x + up.0, g.y + up.1)]
                .into_iter()
                .fold(b, |[x0, y0, x1, y1], (x, y)| {
                    [x0.min(x), y0.min(y), x1.max(x), y1.max(y)]
                })
        })
}

/// The unit vector of a glyph's advance; `None` for a glyph that does not advance (a mark).
fn direction(g: &Placed) -> Option<(f32, f32)> {
    let (dx, dy) = (g.x_end - g.x, g.y_end - g.y);
    let length = (dx * dx + dy * dy).sqrt();
    (length > 1e-3 * g.size.max(1e-3) && length.is_finite()).then(|| (dx / length, dy / length))
}

/// Where `g` starts from where `last` ended, along `heading` and across it (positive: to the
/// left of the heading, above an upright baseline).
fn offset(last: &Placed, g: &Placed, heading: (f32, f32)) -> (f32, f32) {
    let (dx, dy) = (g.x - last.x_end, g.y - last.y_end);
    (
        dx * heading.0 + dy * heading.1,
        dy * heading.0 - dx * heading.1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::page_text;

    /// `text` drawn glyph by glyph from (`x`, `y`), each glyph turned `degrees` plus `bend`
    /// more than the one before (an arc), each advancing 5 units.
    fn along(text: &str, x: f32, y: f32, degrees: f32, bend: f32) -> Vec<Placed> {
        let (mut x, mut y, mut angle) = (x, y, degrees.to_radians());
        let mut out = Vec::new();
        for c in text.chars() {
            let (x_end, y_end) = (x + 5.0 * angle.cos(), y + 5.0 * angle.sin());
            out.push(Placed {
                text: c.to_string(),
                x,
                y,
                x_end,
                y_end,
                size: 10.0,
                turns: None,
                synthesized: false,
            });
            // A space is not drawn: a third of an em of gap instead.
            if c == ' ' {
                out.pop();
            }
            (x, y) = (x_end, y_end);
            angle -= bend.to_radians();
        }
        out
    }

    #[test]
    fn slanted_lines_read_as_lines() {
        // Two OCR lines two degrees off the horizontal: the first climbs 7 units, more than
        // half an em, from its first word to its last.
        let mut glyphs = along("Lorem ipsum dolor sit amet", 0.0, 100.0, 2.0, 0.0);
        glyphs.extend(along("consectetur", 0.0, 86.0, 2.0, 0.0));
        assert_eq!(page_text(glyphs), "Lorem ipsum dolor sit amet\nconsectetur");
    }

    #[test]
    fn words_on_an_arc_read_as_one_line() {
        // Turning 4 degrees per glyph: 150 degrees round a circle by the end.
        let glyphs = along("How could this judgment fit", 0.0, 0.0, 90.0, 4.0);
        assert_eq!(page_text(glyphs), "How could this judgment fit");
    }

    #[test]
    fn labels_at_different_angles_are_lines_of_their_own_after_the_upright_text() {
        let mut glyphs = along("x axis", 0.0, 0.0, 30.0, 0.0);
        glyphs.extend(along("y axis", 0.0, 0.0, 120.0, 0.0));
        let mut upright = along("Figure", 0.0, 200.0, 0.0, 0.0);
        upright.iter_mut().for_each(|g| g.turns = Some(0));
        glyphs.extend(upright);
        assert_eq!(page_text(glyphs), "Figure\n\nx axis\ny axis");
    }

    #[test]
    fn a_run_is_boxed_where_it_is_drawn() {
        let run = along("ab", 10.0, 20.0, 45.0, 0.0);
        let [x0, y0, x1, y1] = bounds(&run);
        assert!((x0 - 2.93).abs() < 0.01 && (y0 - 20.0).abs() < 0.01);
        assert!((x1 - 17.07).abs() < 0.01 && (y1 - 30.61).abs() < 0.01);
    }
}
