//! What a page lost: the glyphs it shows and those that gave no text, by why.

use super::font::Loss;

/// The glyphs a page shows, and those that gave no text, by why. Visible and invisible (text
/// render mode 3: the OCR layer of a scan, or hidden text) are counted apart.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Visible glyphs shown (a space code without text is not counted).
    pub shown: u32,
    /// Visible glyphs that gave no text: no Unicode, font not loaded, unmapped glyph names.
    pub lost: [u32; 3],
    /// Invisible glyphs shown.
    pub invisible: u32,
    /// Invisible glyphs that gave no text.
    pub invisible_lost: u32,
}

impl Tally {
    fn slot(loss: Loss) -> usize {
        match loss {
            Loss::NoUnicode => 0,
            Loss::FontNotLoaded => 1,
            Loss::UnmappedGlyphNames => 2,
        }
    }

    /// Visible glyphs that gave no text.
    pub fn lost_total(&self) -> u32 {
        self.lost.iter().sum()
    }

    /// Why most of the lost glyphs were lost.
    pub fn main_loss(&self) -> Option<Loss> {
        [
            Loss::NoUnicode,
            Loss::FontNotLoaded,
            Loss::UnmappedGlyphNames,
        ]
        .into_iter()
        .filter(|&l| self.lost[Self::slot(l)] > 0)
        .max_by_key(|&l| self.lost[Self::slot(l)])
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Tally) {
        self.shown += other.shown;
        self.invisible += other.invisible;
        self.invisible_lost += other.invisible_lost;
        for (a, b) in self.lost.iter_mut().zip(other.lost) {
            *a += b;
        }
    }

    pub(super) fn count(&mut self, visible: bool, lost: Option<Loss>, n: u32) {
        match (visible, lost) {
            (true, None) => self.shown += n,
            (true, Some(l)) => {
                self.shown += n;
                self.lost[Self::slot(l)] += n;
            }
            (false, None) => self.invisible += n,
            (false, Some(_)) => {
                self.invisible += n;
                self.invisible_lost += n;
            }
        }
    }
}
