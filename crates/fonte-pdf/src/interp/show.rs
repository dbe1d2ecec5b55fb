//! Placing the glyphs of one string: each glyph's rendering matrix (a Type3 font's glyph
//! frame included), its advance under the text state, whether the loss tally counts it, and
//! the box the layout reads.

use pdf::object::Resolve;

use super::{glyph_shown, Interpreter, MAX_CODE_BYTES};
use crate::font::Loss;
use crate::matrix::{mirrored_on_a_line, quarter_turns, turned, M};
use crate::placed::Placed;
use crate::text_state::GState;

/// A string of three glyphs or more shown with a positive character spacing, each glyph's
/// end taken at its advance with the spacing (letter spacing reads as one word). Ghostscript
/// also justifies groff's lines so: "(•Af) Tj" at 0.25 em of Tc is "• A" and the start of
/// "false", whose rest the next string places at the "f"'s ink, not a spacing after it
/// (libexplain's readme.pdf read "•Afalse"). Letter-spaced text goes on a spacing after its
/// last glyph, or a word space; where the next string starts at the last glyph's ink
/// instead, the spacing was word breaks, and the run's glyphs end at their ink.
pub(super) struct SpacedRun {
    /// Each glyph's index in the page's glyphs and where its ink ends (x, y).
    ends: Vec<(usize, f32, f32)>,
    /// The glyphs' size on the page, for the tolerance.
    size: f32,
}

impl SpacedRun {
    /// Ends the run's glyphs at their ink when the next string starts (x, y) where the run's
    /// last glyph's ink ends, within a twentieth of its size.
    fn settle(self, x: f32, y: f32, out: &mut [Placed]) {
        let Some(&(_, x_end, y_end)) = self.ends.last() else {
            return;
        };
        if (x - x_end).hypot(y - y_end) > 0.05 * self.size {
            return;
        }
        for (i, x_end, y_end) in self.ends {
            if let Some(glyph) = out.get_mut(i) {
                (glyph.x_end, glyph.y_end) = (x_end, y_end);
            }
        }
    }
}

impl<'r, R: Resolve> Interpreter<'r, R> {
    /// Places the glyphs of one string; true when its last glyph was placed (the last of `out`).
    pub(super) fn show(
        &mut self,
        bytes: &[u8],
        gs: &GState,
        tm: &mut M,
        out: &mut Vec<Placed>,
    ) -> bool {
        let most = self.budget.glyphs.saturating_mul(MAX_CODE_BYTES);
        let bytes = if bytes.len() > most {
            self.truncated = true;
            &bytes[..most]
        } else {
            bytes
        };
        let Some(font) = &gs.font else {
            if gs.font_broken {
                // How many glyphs is unknown without the font: one a byte, as a simple font.
                let n = bytes.len().min(self.budget.glyphs) as u32;
                self.budget.glyphs -= n as usize;
                self.tally
                    .count(!gs.invisible, Some(Loss::FontNotLoaded), n);
            }
            return false;
        };
        let glyphs = font.decode(bytes);
        // Ghostscript (ps2pdf of troff and other PostScript) justifies a line by showing the
        // two glyphs around a word break as one string with a character spacing as wide as
        // the break: "(dw) Tj" at 4.4 Tc is "invoked with". Letter-spaced text spaces a run
        // of three glyphs or more, so only a two-glyph string's spacing is left out of its
        // first glyph's end, and the layout sees the gap and reads a word break where it is
        // wide enough (as pdftotext does; grdemo-doc.pdf, issue 16).
        let break_between =
            glyphs.len() == 2 && gs.char_space > 0.0 && !glyphs.iter().any(|g| g.is_space_code);
        // A character spacing of an em or more is no letter spacing (tracking rarely passes
        // half an em): the glyphs are items apart, as the cells of a glyph table that pdfTeX
        // spaces with 1.3 em of Tc (txfontsdoc.pdf).
        let apart = gs.size > 0.0 && gs.char_space >= gs.size;
        // A lone glyph reflected in place is a typographic device (the reversed E of the XeTeX
        // logo) and stays in its line; a reflected string is a mirror image, read along its
        // advance with the skewed text.
        let alone = glyphs.len() == 1;
        // Vertical writing (Japanese columns): each glyph moves the pen down, and a column
        // reads as a line turned a quarter clockwise, whose frame turns the page so that
        // columns read right to left become lines read top to bottom.
        let vertical = font.vertical();
        let frame = font.glyph_frame();
        let mut placed_last = false;
        let mut pending = self.spaced.take();
        let spaced = glyphs.len() >= 3
            && gs.char_space > 0.0
            && !apart
            && !gs.words_by_spacing
            && !vertical
            && !glyphs.iter().any(|g| g.is_space_code);
        let mut ends = Vec::new();
        for (i, glyph) in glyphs.into_iter().enumerate() {
            placed_last = false;
            let trm = M([gs.size * gs.scale, 0.0, 0.0, gs.size, 0.0, gs.rise])
                .then(*tm)
                .then(gs.ctm);
            let trm = match frame {
                Some([fa, fb, fc, fd]) => {
                    // Which way up a Type3 glyph is drawn its matrices cannot tell: its
                    // procedures may draw it with y down and the font's matrix flip it back
                    // (test_3197.pdf), or upright (dvips). As poppler, only the direction of
                    // its baseline counts, and a reflected glyph reads as upright.
                    let [a, b, c, d, e, f] = M([fa, fb, fc, fd, 0.0, 0.0]).then(trm).0;
                    let sign = if a * d - b * c < 0.0 { -1.0 } else { 1.0 };
                    M([a, b, sign * c, sign * d, e, f])
                }
                None => trm,
            };
            let [a, b, c, d, e, f] = trm.0;
            if let Some(run) = pending.take() {
                run.settle(e, f, out);
            }
            let mut advance = glyph.width * gs.size + gs.char_space;
            if glyph.is_space_code {
                advance += gs.word_space;
            }
            if vertical {
                *tm = M::translate(0.0, -advance).then(*tm);
            } else {
                advance *= gs.scale;
                *tm = M::translate(advance, 0.0).then(*tm);
            }
            // A negative character spacing moves the pen back, not the glyph's ink: the glyph
            // ends where its width does. Ended at the pen, a pair kerned so ("(Ve) Tj" at -1 Tc,
            // then the rest of the word placed where the "e" ends: groff through Ghostscript,
            // libexplain's readme.pdf) left a tenth of an em before the rest: "Ve rsion".
            let spacing_apart =
                (break_between && i == 0) || apart || gs.words_by_spacing || gs.char_space < 0.0;
            let (x_end, y_end) = if spacing_apart && !vertical {
                M::translate(-gs.char_space * gs.scale, 0.0)
                    .then(*tm)
                    .then(gs.ctm)
                    .apply(0.0, 0.0)
            } else {
                tm.then(gs.ctm).apply(0.0, 0.0)
            };
            // Counted where a viewer shows it, as `page_text` keeps it.
            let in_view = glyph_shown(self.shown_area, e, f, x_end, y_end);
            if in_view && !(glyph.is_space_code && glyph.text.is_empty()) {
                let lost = glyph.lost.filter(|_| !self.spans.is_open());
                self.tally.count(!gs.invisible, lost, 1);
            }
            // Every decoded glyph costs, shown or not: a string of unmapped codes repeated
            // by a million `Tj` is work too.
            self.budget.glyphs = self.budget.glyphs.saturating_sub(1);
            self.spans.shown(|| Placed {
                text: String::new(),
                x: e,
                y: f,
                x_end,
                y_end,
                size: (c * c + d * d).sqrt(),
                turns: turned(quarter_turns(a, b, c, d), vertical),
                synthesized: false,
            });
            if glyph.text.is_empty() {
                continue;
            }
            // A space squeezed by a negative word spacing to under a tenth of an em separates
            // nothing on the page (Ghostscript draws "hav e" at -2.5 Tw for "have"): the
            // layout then reads the gap, as it does where no space is drawn.
            if glyph.text.chars().all(char::is_whitespace) && advance < 0.1 * gs.size * gs.scale {
                continue;
            }
            let size = (c * c + d * d).sqrt();
            let (x, x_end, turns) = match quarter_turns(a, b, c, d) {
                None if alone && !vertical && mirrored_on_a_line(a, b, c, d) => {
                    (e.min(x_end), e.max(x_end), Some(0))
                }
                turns => (e, x_end, turned(turns, vertical)),
            };
            out.push(Placed {
                text: glyph.text,
                x,
                y: f,
                x_end,
                y_end,
                size,
                turns,
                synthesized: false,
            });
            placed_last = true;
            if spaced {
                let (x, y) = M::translate(-gs.char_space * gs.scale, 0.0)
                    .then(*tm)
                    .then(gs.ctm)
                    .apply(0.0, 0.0);
                ends.push((out.len() - 1, x, y));
            }
        }
        if spaced && !ends.is_empty() {
            let size = out.last().map_or(0.0, |g| g.size);
            self.spaced = Some(SpacedRun { ends, size });
        }
        placed_last
    }
}
