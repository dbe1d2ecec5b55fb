//! Font decoding: character codes in a content stream -> Unicode text and advance widths.
//!
//! The order follows what viewers and pdftotext do: the font's ToUnicode map first, then its
//! /Encoding (base encoding + /Differences glyph names through the Adobe Glyph List), then the
//! built-in encoding of an embedded Type1 program, then the standard encodings.

use std::collections::HashMap;

use pdf::encoding::BaseEncoding;
use pdf::font::{Font, FontData, ToUnicodeMap};
use pdf::object::Resolve;
use pdf::primitive::Primitive;
use pdf_encoding::{MACROMAN, STANDARD, SYMBOL, WINANSI, ZDINGBAT};

mod cmap;
mod collections;
mod glyph;
mod names;
mod predefined;
mod programs;
mod standard;
mod truetype;

use cmap::EmbeddedCMap;
use collections::Collection;
pub use glyph::{Glyph, Loss};
pub use names::glyph_name_text;
use names::{code_named_glyph, codes_named_by_number, number_named_glyph};
use predefined::{roman_cid, UnicodeCodes};
use programs::{cff_builtin_encoding, type1_builtin_encoding};
use standard::standard_widths;
use truetype::{is_truetype, TrueTypeTables};

/// A font prepared for decoding.
pub struct FontDecoder {
    two_byte: bool,
    to_unicode: Option<ToUnicodeMap>,
    /// For simple fonts: code -> text from the encoding.
    table: Vec<Option<String>>,
    /// For simple fonts: why a code has no text in `table`; `None` where the code draws no
    /// glyph (the encoding gives it no name, or names it .notdef).
    table_loss: Vec<Option<Loss>>,
    /// CID fonts: the embedded TrueType program's tables and the CID -> glyph map, for codes
    /// the ToUnicode map does not cover.
    cid_program: Option<(TrueTypeTables, Option<Vec<u16>>)>,
    /// Why a CID font's code that nothing maps has no text.
    cid_loss: Loss,
    /// CID fonts whose /Encoding is a predefined Unicode CMap: how its codes are split.
    unicode_codes: Option<UnicodeCodes>,
    /// CID fonts whose /Encoding is an embedded CMap: code lengths and CIDs.
    embedded_cmap: Option<EmbeddedCMap>,
    /// CID fonts of an Adobe CJK collection whose codes select known CIDs (Identity or an
    /// embedded CMap): the collection's character of each CID.
    collection: Option<Collection>,
    /// Vertical writing (WMode 1): how far down each glyph moves the pen, in ems (/DW2).
    vertical: Option<f32>,
    widths: HashMap<u32, f32>,
    /// Standard-14 fonts without /Widths: widths by character (in 1/1000).
    standard: Option<HashMap<char, f32>>,
    /// CID fonts: /W and /DW of the descendant font (in 1/1000).
    cid_widths: Option<pdf::font::Widths>,
    default_width: f32,
    /// Type3 glyph space -> text space (x scale); 0.001 for every other font.
    width_scale: f32,
}

fn base_table(base: &BaseEncoding) -> Option<&'static pdf_encoding::ForwardMap> {
    match base {
        BaseEncoding::StandardEncoding => Some(&STANDARD),
        BaseEncoding::WinAnsiEncoding => Some(&WINANSI),
        BaseEncoding::MacRomanEncoding => Some(&MACROMAN),
        BaseEncoding::SymbolEncoding => Some(&SYMBOL),
        _ => None,
    }
}

fn number(p: &Primitive) -> Option<f32> {
    match p {
        Primitive::Integer(i) => Some(*i as f32),
        Primitive::Number(n) => Some(*n),
        _ => None,
    }
}

impl FontDecoder {
    /// Prepares `font`. Never fails: what cannot be read makes glyphs decode to "".
    pub fn new(font: &Font, resolve: &impl Resolve) -> Self {
        let two_byte = matches!(font.data, FontData::Type0(_));
        let to_unicode = font
            .to_unicode(resolve)
            .and_then(Result::ok)
            // A map that gives no code a character says nothing (a tax form's fonts, PyMuPDF's
            // test_2954.pdf, map codes 0 to 2 to U+0000 and nothing else): the font program
            // is asked instead, as for a font without one.
            .filter(|m| m.iter().any(|(_, t)| t.chars().any(|c| !c.is_control())));
        let symbolic = match &font.data {
            FontData::Type1(t) | FontData::TrueType(t) => t
                .font_descriptor
                .as_ref()
                .is_some_and(|d| d.flags & 4 != 0 && d.flags & 32 == 0),
            _ => false,
        };
        let base_font = match &font.data {
            FontData::Type1(t) | FontData::TrueType(t) => {
                t.base_font.as_ref().map(|n| n.as_str().to_string())
            }
            _ => None,
        }
        .unwrap_or_default();

        // The embedded program: Type1 and CFF built-in encodings, TrueType tables. Decoded
        // only where the text may depend on it (a font is prepared once per page): without a
        // ToUnicode map, or with one of a few codes, which may be all that a producer mapped
        // (a tax form's QuickTypeII maps three codes, two of them to U+0000; PyMuPDF's
        // test_2954.pdf), the rest left to the program.
        let needs_program = matches!(font.data, FontData::Type1(_))
            || to_unicode.as_ref().is_none_or(|m| m.len() < 8);
        let embedded = if needs_program {
            font.embedded_data(resolve)
        } else {
            None
        };
        let mut program_broken = matches!(embedded, Some(Err(_)));
        let program = embedded.and_then(Result::ok);
        let truetype = program.as_deref().and_then(|data| {
            let tables = is_truetype(font, data).then(|| TrueTypeTables::parse(data))?;
            program_broken |= tables.is_none();
            tables
        });
        let unknown = if program_broken {
            Loss::FontNotLoaded
        } else {
            Loss::NoUnicode
        };

        // Simple fonts: build a 256-entry code -> text table.
        let mut table: Vec<Option<String>> = vec![None; 256];
        let mut table_loss: Vec<Option<Loss>> = vec![Some(unknown); 256];
        let mut width_scale = 0.001;
        let mut widths = HashMap::new();
        let mut default_width = 0.5;
        if !two_byte {
            let builtin = if matches!(font.data, FontData::Type1(_)) {
                program
                    .as_deref()
                    .map(|d| cff_builtin_encoding(d).unwrap_or_else(|| type1_builtin_encoding(d)))
            } else {
                None
            };
            let named_base = font.encoding().and_then(|e| base_table(&e.base));
            let fallback: Option<&pdf_encoding::ForwardMap> = if base_font.contains("ZapfDingbats")
            {
                Some(&ZDINGBAT)
            } else if base_font.contains("Symbol") {
                Some(&SYMBOL)
            } else if builtin.as_ref().is_some_and(|b| !b.is_empty()) || symbolic {
                None
            } else if matches!(font.data, FontData::TrueType(_)) {
                Some(&WINANSI)
            } else {
                Some(&STANDARD)
            };
            // Where the encoding is known, a code it gives no name draws .notdef: nothing lost.
            // Where it is not (a symbolic font without a built-in encoding), every code may
            // draw a glyph.
            let known = named_base.is_some()
                || fallback.is_some()
                || builtin.as_ref().is_some_and(|b| !b.is_empty());
            for (code, slot) in table.iter_mut().enumerate() {
                if known {
                    table_loss[code] = None;
                }
                let code8 = code as u8;
                // pdf_encoding's StandardEncoding (at 0x2D) and WinAnsiEncoding (at 0xAD) give
                // the glyph "hyphen" as U+00AD, the soft hyphen, which the layout drops as
                // invisible: every hyphen of a groff document ("picture-drawing",
                // grdemo-doc.pdf) vanished. Drawn through an encoding it is a visible hyphen.
                let from_base = named_base
                    .or(fallback)
                    .and_then(|m| m.get(code8))
                    .map(|c| if c == '\u{AD}' { '-' } else { c })
                    .map(String::from);
                let builtin_name = builtin.as_ref().and_then(|b| b.get(&code8));
                let from_builtin = builtin_name.and_then(|n| glyph_name_text(n));
                *slot = if named_base.is_some() {
                    from_base.or(from_builtin)
                } else {
                    from_builtin.or(from_base)
                };
                if slot.is_none() && builtin_name.is_some_and(|n| n != ".notdef") {
                    table_loss[code] = Some(Loss::UnmappedGlyphNames);
                }
            }
            let type3 = matches!(font.subtype, pdf::font::FontType::Type3);
            if let Some(enc) = font.encoding() {
                let numbers = type3
                    && codes_named_by_number(enc.differences.iter().map(|(c, n)| (*c, n.as_str())));
                for (code, name) in &enc.differences {
                    if let Some(slot) = table.get_mut(*code as usize) {
                        *slot = glyph_name_text(name)
                            .or_else(|| type3.then(|| code_named_glyph(name, *code)).flatten())
                            .or_else(|| numbers.then(|| number_named_glyph(name, *code)).flatten());
                        if slot.is_none() {
                            table_loss[*code as usize] =
                                (name != ".notdef").then_some(Loss::UnmappedGlyphNames);
                        }
                    }
                }
            }
            // What the dictionary leaves unmapped, a TrueType program may still say: the glyph
            // its cmap selects for the code, and that glyph's character or name.
            if let Some(tt) = &truetype {
                for (code, slot) in table.iter_mut().enumerate() {
                    if slot.is_some() {
                        continue;
                    }
                    if let Some(gid) = tt.glyph_of_code(code as u8) {
                        // The cmap selects a real glyph (never .notdef, glyph 0).
                        match tt.text(gid) {
                            Ok(text) => *slot = Some(text),
                            Err(_) if table_loss[code] == Some(Loss::UnmappedGlyphNames) => {}
                            Err(loss) => table_loss[code] = Some(loss),
                        }
                    }
                }
            }
            // Type3: /Encoding, /Widths and /FontMatrix live in the raw dictionary, each
            // possibly an indirect object (PdUsample.pdf's /Widths: read as none, every glyph
            // was half an em wide and "dass S" read "dassS").
            let raw = |key: &str| match &font.data {
                FontData::Other(dict) => dict
                    .get(key)
                    .or_else(|| font._other.get(key))
                    .and_then(|p| p.clone().resolve(resolve).ok()),
                _ => None,
            };
            if let Some(Primitive::Array(m)) = raw("FontMatrix") {
                if let Some(a) = m.first().and_then(number) {
                    width_scale = a;
                }
            }
            if let Ok(Some(w)) = font.widths(resolve) {
                for code in 0..256u32 {
                    let v = w.get(code as usize);
                    if v > 0.0 {
                        widths.insert(code, v);
                    }
                }
            } else if let Some(Primitive::Array(ws)) = raw("Widths") {
                let first = raw("FirstChar").as_ref().and_then(number).unwrap_or(0.0) as u32;
                for (i, w) in ws.iter().enumerate() {
                    if let Some(w) = number(w) {
                        widths.insert(first + i as u32, w);
                    }
                }
            }
            if let Some(d) = font.info().and_then(|t| t.font_descriptor.as_ref()) {
                if d.missing_width > 0.0 {
                    default_width = d.missing_width * width_scale;
                }
            }
        }
        let standard = if !two_byte && widths.is_empty() {
            standard_widths(&base_font)
        } else {
            None
        };
        let cid_widths = if two_byte {
            font.widths(resolve).ok().flatten()
        } else {
            None
        };

        let cid_program = if two_byte {
            truetype.map(|tt| {
                let table = match font.cid_to_gid_map() {
                    Some(pdf::font::CidToGidMap::Table(t)) => Some(t.clone()),
                    _ => None,
                };
                (tt, table)
            })
        } else {
            None
        };

        let unicode_codes = match font.encoding().map(|e| &e.base) {
            Some(BaseEncoding::Other(name)) if two_byte => UnicodeCodes::of(name),
            _ => None,
        };
        let embedded_cmap = font
            .encoding_cmap
            .as_ref()
            .filter(|_| two_byte)
            .and_then(|s| (**s).data(resolve).ok())
            .and_then(|data| EmbeddedCMap::parse(&data));
        // Under a predefined CMap other than Identity (90ms-RKSJ-H) the code is not the CID,
        // and the collection cannot be asked without that CMap's table.
        let codes_are_cids = embedded_cmap.is_some()
            || match font.encoding().map(|e| &e.base) {
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
        });
        let vertical_mode = embedded_cmap.as_ref().is_some_and(|c| c.vertical)
            || matches!(font.encoding().map(|e| &e.base), Some(BaseEncoding::Other(name)) if name.ends_with("-V"));
        let vertical = (two_byte && vertical_mode).then(|| down_advance(font, resolve));
        Self {
            two_byte,
            to_unicode,
            table,
            table_loss,
            cid_program,
            cid_loss: unknown,
            unicode_codes,
            embedded_cmap,
            collection,
            vertical,
            widths,
            standard,
            cid_widths,
            default_width,
            width_scale,
        }
    }

    /// Whether the font writes vertically (WMode 1: Identity-V, UniJIS-UCS2-V): each glyph
    /// moves the pen down by its [`Glyph::width`], not across.
    pub fn vertical(&self) -> bool {
        self.vertical.is_some()
    }

    /// Decodes the bytes of one string operand into glyphs.
    pub fn decode(&self, bytes: &[u8]) -> Vec<Glyph> {
        let mut out = Vec::with_capacity(bytes.len());
        if self.two_byte {
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
                    .and_then(|code| self.to_unicode.as_ref()?.get(code));
                let text = match mapped {
                    Some(t) => Ok(t.to_string()),
                    None => match by_code {
                        Some(c) => Ok(c.to_string()),
                        None => {
                            u16::try_from(selected).map_or(Err(self.cid_loss), |cid| {
                                match self.collection.and_then(|c| c.text(cid)) {
                                    Some(t) => Ok(t.to_string()),
                                    None => self.cid_text(cid),
                                }
                            })
                        }
                    },
                };
                // Under a Unicode CMap the code is no CID: a Roman character's CID is known,
                // the rest take the font's default width.
                let cid = match (self.unicode_codes, by_code) {
                    (Some(_), Some(c)) => roman_cid(c).unwrap_or(usize::MAX),
                    (Some(_), None) => usize::MAX,
                    (None, _) => selected as usize,
                };
                let width = match self.vertical {
                    Some(down) => down,
                    None => self
                        .cid_widths
                        .as_ref()
                        .map_or(self.default_width, |w| w.get(cid) * 0.001),
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
        } else {
            for &b in bytes {
                let text = self
                    .to_unicode
                    .as_ref()
                    .and_then(|m| m.get(b as u16))
                    .map(str::to_string)
                    .or_else(|| self.table[b as usize].clone())
                    .unwrap_or_default();
                let width = match self.widths.get(&(b as u32)) {
                    Some(w) => w * self.width_scale,
                    None => self
                        .standard
                        .as_ref()
                        .and_then(|m| text.chars().next().and_then(|c| m.get(&c)))
                        .map_or(self.default_width, |w| w * 0.001),
                };
                // Code 32 with no text is a space drawn as a gap: nothing is lost.
                let lost = if text.is_empty() && b != 32 {
                    self.table_loss[b as usize]
                } else {
                    None
                };
                out.push(Glyph {
                    text,
                    width,
                    is_space_code: b == 32,
                    lost,
                });
            }
        }
        out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyph_names_resolve_through_agl_uni_and_ligatures() {
        assert_eq!(glyph_name_text("eacute").as_deref(), Some("é"));
        assert_eq!(glyph_name_text("uni00E7").as_deref(), Some("ç"));
        assert_eq!(glyph_name_text("u1F600").as_deref(), Some("😀"));
        assert_eq!(glyph_name_text("f_f_i").as_deref(), Some("ffi"));
        assert_eq!(glyph_name_text("a.sc").as_deref(), Some("a"));
        assert_eq!(glyph_name_text("g123"), None);
        // TeX math fonts.
        assert_eq!(glyph_name_text("angbracketleft").as_deref(), Some("⟨"));
        assert_eq!(glyph_name_text("parenleftbigg").as_deref(), Some("("));
        assert_eq!(glyph_name_text("summationdisplay").as_deref(), Some("∑"));
        assert_eq!(glyph_name_text("unionsqtext").as_deref(), Some("⊔"));
        assert_eq!(glyph_name_text("epsilon1").as_deref(), Some("ε"));
        // Found shown and lost on the wide corpus (cursolatex.pdf, pt-lshort.pdf: Latin Modern
        // math fonts).
        assert_eq!(glyph_name_text("pi1").as_deref(), Some("ϖ"));
        assert_eq!(glyph_name_text("arrowrighttophalf").as_deref(), Some("⇀"));
        // Pieces and accents: known, no text of their own.
        assert_eq!(glyph_name_text("vextendsingle").as_deref(), Some(""));
        assert_eq!(glyph_name_text("tildewidest").as_deref(), Some(""));
    }

    #[test]
    fn reads_a_type1_builtin_encoding() {
        let program = b"%!PS-AdobeFont-1.0\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 65 /Aacute put\ndup 102 /fi put\nreadonly def\ncurrentfile eexec \x01\x02dup 66 /B put";
        let enc = type1_builtin_encoding(program);
        assert_eq!(enc.get(&65).map(String::as_str), Some("Aacute"));
        assert_eq!(enc.get(&102).map(String::as_str), Some("fi"));
        assert!(!enc.contains_key(&66), "past eexec is encrypted");
    }
}
