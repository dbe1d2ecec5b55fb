//! Glyphs the layout leaves out before it builds lines: copies of glyphs drawn again over
//! themselves, and spaces drawn back over text already on their line.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use super::bidi;
use super::placed::Placed;

/// Drops glyphs drawn again over themselves: fake bold (the same text drawn twice a fraction
/// of a point apart), drop shadows and outlines (the `contour` package draws a word sixteen
/// times around its position). A glyph is a copy when the same text at the same size was
/// already placed within a tenth of its size across and a fifth along the vertical.
pub(super) fn drop_overdrawn(glyphs: Vec<Placed>) -> Vec<Placed> {
    const NONE: u32 = u32::MAX;
    // Glyphs are indexed by size class (a power of two) and a grid of cells as large as the
    // class's smallest size, so a lookup visits a bounded number of cells at any size: with one
    // fixed cell size, a glyph drawn at size 1e30 swept 4 billion cells.
    let class = |size: f32| size.log2().floor().clamp(-64.0, 64.0) as i32;
    let cell = |v: f32, c: i32| (v / 2f32.powi(c)).floor() as i64;
    // Per (text, class, cell): the last kept glyph there; `chain` links it to the one before.
    // Every glyph is looked up, so this avoids a SipHash and an allocation per glyph (they
    // cost a third of the page's time).
    let mut last: FxHashMap<(u64, i32, i64, i64), u32> = FxHashMap::default();
    last.reserve(glyphs.len());
    let mut chain: Vec<u32> = Vec::with_capacity(glyphs.len());
    let mut kept: Vec<Placed> = Vec::with_capacity(glyphs.len());
    for g in glyphs {
        if g.text.trim().is_empty() || g.synthesized {
            chain.push(NONE);
            kept.push(g);
            continue;
        }
        let mut h = FxHasher::default();
        g.text.hash(&mut h);
        let key = h.finish();
        let (tx, ty) = (0.1 * g.size, 0.2 * g.size);
        let is_copy_of = |i: u32| {
            let k = &kept[i as usize];
            k.text == g.text
                && (k.x - g.x).abs() < tx
                && (k.y - g.y).abs() < ty
                && (k.size - g.size).abs() < 0.1 * g.size
        };
        // A copy's size is within 10% of this one's: its class is this one or a neighbour,
        // and within that class's cells the tolerances span at most 2 x 3 cells.
        let here = class(g.size);
        let copy = (here - 1..=here + 1).any(|c| {
            (cell(g.x - tx, c)..=cell(g.x + tx, c)).any(|cx| {
                (cell(g.y - ty, c)..=cell(g.y + ty, c)).any(|cy| {
                    let mut i = last.get(&(key, c, cx, cy)).copied().unwrap_or(NONE);
                    while i != NONE {
                        if is_copy_of(i) {
                            return true;
                        }
                        i = chain[i as usize];
                    }
                    false
                })
            })
        });
        if !copy {
            let at = kept.len() as u32;
            let before = last.insert((key, here, cell(g.x, here), cell(g.y, here)), at);
            chain.push(before.unwrap_or(NONE));
            kept.push(g);
        }
    }
    kept
}

/// Drops the spaces drawn back over text already on the line: Wells Fargo's reports (PyMuPDF's
/// test_3725.pdf) draw each word in pieces, an invisible space between them placed inside the
/// piece before ("in t", a space back at "n", "he loa", a space back at "lo", "ns"), which read
/// as "t he loa" and a line broken at "loa". A space so placed separates nothing on the page;
/// where a word does break, the gap to the next glyph says so (as pdftotext reads every space).
/// Not in right-to-left text, whose glyphs may be drawn leftwards.
pub(super) fn drop_spaces_drawn_back(glyphs: Vec<Placed>) -> Vec<Placed> {
    let mut last: Option<(f32, f32, f32, bool)> = None;
    glyphs
        .into_iter()
        .filter(|g| {
            if !g.text.chars().all(char::is_whitespace) {
                last = Some((g.x_end, g.y, g.size, bidi::has_rtl(&g.text)));
                return true;
            }
            !last.is_some_and(|(x_end, y, size, rtl)| {
                let size = size.max(g.size).max(1.0);
                !rtl && (g.y - y).abs() < 0.5 * size && g.x < x_end - 0.1 * size
            })
        })
        .collect()
}
