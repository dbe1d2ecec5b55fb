//! TeX's 8-bit text layouts (OT1, T1) of a bitmap font whose glyphs are named by their codes,
//! told by the glyphs' widths: what its ligatures, quotes and dashes read as.

use std::collections::HashMap;

use super::names::CodeScript;

/// TeX's two 8-bit layouts of a text font, which its bitmap glyphs keep when dvips or pdfTeX
/// embed them named by their codes: the original one (OT1: Computer Modern's cmr, cmbx, cmti)
/// and the Cork one (T1: the EC fonts, and the lower half of T2A). ASCII letters and digits
/// are ASCII in both; elsewhere they differ from ASCII and from each other, and without the
/// layout those glyphs were lost: every f-ligature ("speci cation", "de nition", "rst" in
/// Debian's silex.pdf, which pdftotext and MuPDF read so too), and OT1's quotes and dashes
/// read as `"`, `\`, `{` and `|`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TexLayout {
    Ot1,
    T1,
}

/// ff, fi, fl, ffi and ffl: five codes from 0x0B in OT1, from 0x1B in T1.
const LIGATURES: [&str; 5] = ["ff", "fi", "fl", "ffi", "ffl"];

/// T1's 0x80–0xBF: the accented letters Latin-1 lacks, then §, ¡, ¿ and £.
const T1_MIDDLE: &str = "ĂĄĆČĎĚĘĞĹĽŁŃŇŊŐŔŘŚŠŞŤŢŰŮŸŹŽŻĲİđ§ăąćčďěęğĺľłńňŋőŕřśšşťţűůÿźžżĳ¡¿£";

impl TexLayout {
    fn first_ligature(self) -> u32 {
        match self {
            Self::Ot1 => 0x0B,
            Self::T1 => 0x1B,
        }
    }

    /// The layout of a Type3 font whose glyphs at `codes` are named by their codes, told by
    /// its f-ligatures: a glyph at a ligature's place in one layout whose width is that of its
    /// letters in the same font, less a little (the ligature saves the kern and overlap:
    /// 0.94–0.95 of them in Computer Modern, 0.91 in Times), where the other layout has
    /// something else there (OT1's α-like math italic at 0x0B–0x0F, T1's ø-like œ, ø, Æ at
    /// 0x1B–0x1F, are not as wide), and no glyph at those five places that does not. `None`
    /// where neither or both fit: the codes keep what they read as without it. Widths in any
    /// unit: only their ratios count.
    pub(super) fn of(codes: &[u32], widths: &HashMap<u32, f32>) -> Option<Self> {
        let width = |c: u32| widths.get(&c).copied().filter(|w| *w > 0.0);
        let ligature_fits = |layout: Self, code: u32| {
            let Some(i) = code.checked_sub(layout.first_ligature()).filter(|i| *i < 5) else {
                return false;
            };
            let letters: Option<f32> = LIGATURES[i as usize]
                .bytes()
                .map(|b| width(u32::from(b)))
                .sum();
            match (width(code), letters) {
                (Some(w), Some(letters)) => (0.88..=1.01).contains(&(w / letters)),
                _ => false,
            }
        };
        // Every glyph the font has at the layout's five places must fit: one that fits by
        // chance among others that do not is no ligature (arabi's transliteration fonts, whose
        // Arabic glyphs sit at those codes, read as Polish letters when one sufficed).
        let fits = |layout: Self| {
            let first = layout.first_ligature();
            let mut at = codes.iter().filter(|&&c| (first..first + 5).contains(&c));
            let any = at.clone().next().is_some();
            any && at.all(|&code| ligature_fits(layout, code))
        };
        match (fits(Self::Ot1), fits(Self::T1)) {
            (true, false) => Some(Self::Ot1),
            (false, true) => Some(Self::T1),
            _ => None,
        }
    }

    /// The text of `code` in this layout where it differs from what [`code_named_glyph`](super::names::code_named_glyph) reads
    /// (ASCII, and T1's letters at 0xC0–0xFF): ligatures, quotes, dashes, dotless i and j,
    /// OT1's ß, æ, œ, ø, and T1's letters at 0x80–0xBF in a Latin font. Accents drawn on their
    /// own over a letter (OT1's 0x12–0x18, T1's 0x00–0x0C) stay unknown.
    pub(super) fn text(self, code: u32, script: CodeScript) -> Option<String> {
        let ligature = code
            .checked_sub(self.first_ligature())
            .and_then(|i| LIGATURES.get(i as usize));
        if let Some(l) = ligature {
            return Some(l.to_string());
        }
        let text = match (self, code) {
            (Self::Ot1, 0x10) | (Self::T1, 0x19) => "ı",
            (Self::Ot1, 0x11) | (Self::T1, 0x1A) => "ȷ",
            (Self::Ot1, 0x19) => "ß",
            (Self::Ot1, 0x1A) => "æ",
            (Self::Ot1, 0x1B) => "œ",
            (Self::Ot1, 0x1C) => "ø",
            (Self::Ot1, 0x1D) => "Æ",
            (Self::Ot1, 0x1E) => "Œ",
            (Self::Ot1, 0x1F) => "Ø",
            (Self::Ot1, 0x22) | (Self::T1, 0x11) => "”",
            (Self::Ot1, 0x5C) | (Self::T1, 0x10) => "“",
            (Self::Ot1, 0x3C) => "¡",
            (Self::Ot1, 0x3E) => "¿",
            (Self::Ot1, 0x7B) | (Self::T1, 0x15) => "–",
            (Self::Ot1, 0x7C) | (Self::T1, 0x16) => "—",
            (Self::T1, 0x0D) => "‚",
            (Self::T1, 0x0E) => "‹",
            (Self::T1, 0x0F) => "›",
            (Self::T1, 0x12) => "„",
            (Self::T1, 0x13) => "«",
            (Self::T1, 0x14) => "»",
            (Self::T1, 0x7F) => "-",
            (Self::T1, 0x80..=0xBF) if script == CodeScript::Latin => {
                return T1_MIDDLE
                    .chars()
                    .nth(code as usize - 0x80)
                    .map(String::from)
            }
            _ => return None,
        };
        Some(text.to_string())
    }
}
