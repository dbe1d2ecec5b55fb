//! Type0 (composite) fonts: how a string's bytes split into codes, which CID each code
//! selects, and what each reads as when the ToUnicode map does not say (the code itself under
//! a Unicode CMap, the CJK collection's character, the TrueType program's tables), with its
//! advance across or, in vertical writing, down.

use std::borrow::Cow;

use pdf::encoding::BaseEncoding;
use pdf::font::{Font, FontData, ToUnicodeMap};
use pdf::object::Resolve;
use pdf::primitive::Primitive;

use super::cmap::{self, EmbeddedCMap};
use super::collections::Collection;
use super::predefined::{cid_cmap, roman_cid, UnicodeCodes};
use super::truetype::TrueTypeTables;
use super::{number, Glyph, Loss};

/// What a Type0 font needs beyond a simple font's decoder.
pub(super) struct Composite {
    /// The embedded TrueType program's tables and the CID -> glyph map, for codes the
    /// ToUnicode map does not cover.
    program: Option<(TrueTypeTables, Option<Vec<u16>>)>,
    /// Why a code that nothing maps has no text.
    loss: Loss,
    /// Under a predefined Unicode CMap: how its codes are split.
    unicode_codes: Option<UnicodeCodes>,
    /// Under an embedded CMap, or a predefined one whose codes are not Unicode: code lengths
    /// and CIDs.
    embedded_cmap: Option<Cow<'static, EmbeddedCMap>>,
    /// Of an Adobe CJK collection whose codes select known CIDs (Identity, an embedded CMap
    /// or a predefined one): the collection's character of each CID.
    collection: Option<Collection>,
    /// Vertical writing (WMode 1): how far down each glyph moves the pen, in ems (/DW2).
    vertical: Option<f32>,
    /// /W and /DW of the descendant font (in 1/1000).
    widths: Option<pdf::font::Widths>,
}

/// A glyph's advance (in ems) where the font gives none.
const DEFAULT_WIDTH: f32 = 0.5;

impl Composite {
    pub(super) fn new(
        font: &Font,
        resolve: &impl Resolve,
        truetype: Option<TrueTypeTables>,
        loss: Loss,
    ) -> Self {
        let program = truetype.map(|tt| {
            let table = match font.cid_to_gid_map() {
                Some(pdf::font::CidToGidMap::Table(t)) => Some(t.clone()),
                _ => None,
            };
            (tt, table)
        });
        let encoding = font.encoding().map(|e| &e.base);
        let unicode_codes = match encoding {
            Some(BaseEncoding::Other(name)) => UnicodeCodes::of(name),
            _ => None,
        };
        // A predefined CMap whose codes are not Unicode (H, 90ms-RKSJ-H) says which CID each
        // code selects by Adobe's table of it, and which collection those CIDs are of.
        let predefined = match encoding {
            Some(BaseEncoding::Other(name)) if unicode_codes.is_none() => cid_cmap(name),
            _ => None,
        };
        let embedded_cmap = font
            .encoding_cmap
            .as_ref()
            .and_then(|s| (**s).data(resolve).ok())
            .and_then(|data| EmbeddedCMap::parse(&data))
            .map(Cow::Owned)
            .or(predefined.map(|(cmap, _)| Cow::Borrowed(cmap)));
        // Under a predefined CMap Fonte holds no table of, the code is not the CID, and the
        // collection cannot be asked.
        let codes_are_cids = embedded_cmap.is_some()
            || match encoding {
                Some(BaseEncoding::IdentityH) | None => true,
                Some(BaseEncoding::Other(name)) => name == "Identity-V",
                Some(_) => false,
            };
        let collection = match &font.data {
            FontData::Type0(t0) if codes_are_cids => t0.descendant_fonts.first(),
            _ => None,
        }
        .and_then(|descendant| match &descendant.data {
            FontData::CIDFontType0(f) | FontData::CIDFontType2(f) => {
                Collection::of(&f.system_info, resolve)
            }
            _ => None,
        })
        // A descendant that names no Adobe collection is read as its CMap's.
        .or(predefined.map(|&(_, collection)| collection));
        let vertical = (embedded_cmap.as_ref().is_some_and(|c| c.vertical)
            || matches!(encoding, Some(BaseEncoding::Other(name)) if name.ends_with("-V")))
        .then(|| down_advance(font, resolve));
        Self {
            program,
            loss,
            unicode_codes,
            embedded_cmap,
            collection,
            vertical,
            widths: font.widths(resolve).ok().flatten(),
        }
    }

    /// Whether the font writes vertically.
    pub(super) fn vertical(&self) -> bool {
        self.vertical.is_some()
    }

    /// Decodes the bytes of one string operand into `out`.
    pub(super) fn decode(
        &self,
        to_unicode: Option<&ToUnicodeMap>,
        bytes: &[u8],
        out: &mut Vec<Glyph>,
    ) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let n = match (&self.embedded_cmap, self.unicode_codes) {
                (Some(cmap), _) => cmap.len(rest),
                (None, Some(u)) => u.len(rest),
                (None, None) => 2,
            }
            .clamp(1, rest.len());
            let (piece, after) = rest.split_at(n);
            rest = after;
            let code = match (&self.embedded_cmap, piece) {
                (Some(_), piece) => cmap::value(piece).unwrap_or(0),
                (None, [a, b, ..]) => u16::from_be_bytes([*a, *b]) as u32,
                (None, [a]) => *a as u32,
                (None, []) => 0,
            };
            // An embedded CMap says which CID the code selects; Identity-H, that it is one.
            let selected = self.embedded_cmap.as_ref().map_or(code, |c| c.cid(code));
            let by_code = self.unicode_codes.and_then(|u| u.text(piece));
            let mapped = u16::try_from(code)
                .ok()
                .and_then(|code| to_unicode?.get(code));
            let text = match (mapped, by_code) {
                (Some(t), _) => Ok(t.to_string()),
                (None, Some(c)) => Ok(c.to_string()),
                (None, None) => u16::try_from(selected).map_or(Err(self.loss), |cid| {
                    match self.collection.and_then(|c| c.text(cid)) {
                        Some(t) => Ok(t.to_string()),
                        None => self.program_text(cid),
                    }
                }),
            };
            // Under a Unicode CMap the code is no CID: a Roman character's CID is known, the
            // rest take the font's default width.
            let cid = match (self.unicode_codes, by_code) {
                (Some(_), Some(c)) => roman_cid(c).unwrap_or(usize::MAX),
                (Some(_), None) => usize::MAX,
                (None, _) => selected as usize,
            };
            let width = match self.vertical {
                Some(down) => down,
                None => self
                    .widths
                    .as_ref()
                    .map_or(DEFAULT_WIDTH, |w| w.get(cid) * 0.001),
            };
            let (text, lost) = match text {
                Ok(t) => (t, None),
                // CID 0 is .notdef: nothing drawn, nothing lost.
                Err(loss) => (String::new(), (selected != 0).then_some(loss)),
            };
            out.push(Glyph {
                text,
                width,
                is_space_code: false,
                lost,
            });
        }
    }

    /// A CID that nothing else maps, through the embedded TrueType program.
    fn program_text(&self, cid: u16) -> Result<String, Loss> {
        let Some((tt, map)) = &self.program else {
            return Err(self.loss);
        };
        let gid = match map {
            Some(table) => *table.get(cid as usize).ok_or(Loss::NoUnicode)?,
            // Identity, the default for an embedded TrueType program.
            None => cid,
        };
        if gid == 0 {
            // .notdef: nothing drawn, nothing lost.
            return Ok(String::new());
        }
        tt.text(gid)
    }
}

/// The vertical advance of a vertical CID font's glyphs in ems: /DW2's second number (the
/// displacement w1y, negative: downwards), -1000 by default. /W2's per-CID exceptions are not
/// read: the advance only spaces the glyphs of a column, which full-width CJK text fills
/// evenly.
fn down_advance(font: &Font, resolve: &impl Resolve) -> f32 {
    let FontData::Type0(t0) = &font.data else {
        return 1.0;
    };
    let dw2 = t0.descendant_fonts.first().and_then(|d| match &d.data {
        FontData::CIDFontType0(f) | FontData::CIDFontType2(f) => f._other.get("DW2").cloned(),
        _ => None,
    });
    match dw2.and_then(|p| p.resolve(resolve).ok()) {
        Some(Primitive::Array(a)) => a
            .get(1)
            .and_then(number)
            .filter(|w1| (-10_000.0..0.0).contains(w1))
            .map_or(1.0, |w1| -w1 / 1000.0),
        _ => 1.0,
    }
}
