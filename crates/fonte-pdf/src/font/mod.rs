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
mod composite;
mod glyph;
mod names;
mod predefined;
mod programs;
mod standard;
mod tex_layout;
mod truetype;
mod type3;

use composite::Composite;
pub use glyph::{Glyph, Loss};
pub use names::glyph_name_text;
use names::{
    base_36, code_named_glyph, code_script, codes_in_base_36, codes_named_by_number, is_code_named,
    number_named_glyph, CodeScript,
};
use programs::{cff_builtin_encoding, type1_builtin_encoding};
use standard::standard_widths;
use tex_layout::TexLayout;
use truetype::{is_truetype, TrueTypeTables};

/// A font prepared for decoding.
pub struct FontDecoder {
    to_unicode: Option<ToUnicodeMap>,
    /// For simple fonts: code -> text from the encoding.
    table: Vec<Option<String>>,
    /// For simple fonts: why a code has no text in `table`; `None` where the code draws no
    /// glyph (the encoding gives it no name, or names it .notdef).
    table_loss: Vec<Option<Loss>>,
    /// Type0 (composite) fonts: how codes split into CIDs and what each CID reads as.
    composite: Option<Composite>,
    widths: HashMap<u32, f32>,
    /// Standard-14 fonts without /Widths: widths by character (in 1/1000).
    standard: Option<HashMap<char, f32>>,
    default_width: f32,
    /// Type3 glyph space -> text space (x scale); 0.001 for every other font.
    width_scale: f32,
    /// Type3: how the font's own matrix turns, reflects and sizes its glyphs against a
    /// 1000-unit em (see [`type3::glyph_frame`]).
    glyph_frame: Option<[f32; 4]>,
    /// Type3 whose glyphs are named by every code from 0 up, and nothing else: how many.
    /// Ghostscript (5.50 to 7.06) gives the glyphs of dvips' bitmap fonts such codes in the
    /// order the document first uses them (see [`FontDecoder::forget_code_names`]).
    numbered_from_zero: usize,
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
        let mut font_matrix = None;
        let mut glyph_frame = None;
        let mut widths = HashMap::new();
        let mut default_width = 0.5;
        let mut numbered_from_zero = 0;
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
            // Type3 glyphs named by their codes, and what their codes say of the script.
            let mut code_named = Vec::new();
            let mut script = CodeScript::Latin;
            if let Some(enc) = font.encoding() {
                let mut differences: Vec<(u32, String)> = enc
                    .differences
                    .iter()
                    .map(|(c, n)| (*c, n.as_str().to_string()))
                    .collect();
                if type3 && codes_in_base_36(differences.iter().map(|(c, n)| (*c, n.as_str()))) {
                    // Names that are the codes in another notation read as "a" and the code.
                    for (code, name) in &mut differences {
                        if base_36(name).is_some() {
                            *name = format!("a{code}");
                        }
                    }
                }
                let numbers = type3
                    && codes_named_by_number(differences.iter().map(|(c, n)| (*c, n.as_str())));
                script = code_script(differences.iter().map(|(c, n)| (*c, n.as_str())));
                for (code, name) in &differences {
                    let name = name.as_str();
                    if type3 && is_code_named(name, *code) {
                        code_named.push(*code);
                    }
                    if let Some(slot) = table.get_mut(*code as usize) {
                        *slot = glyph_name_text(name)
                            .or_else(|| {
                                type3
                                    .then(|| code_named_glyph(name, *code, script))
                                    .flatten()
                            })
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
                let m: Vec<f32> = m.iter().take(4).filter_map(number).collect();
                if let [a, b, c, d] = m[..] {
                    font_matrix = Some([a, b, c, d]);
                }
            }
            if let Ok(Some(w)) = font.widths(resolve) {
                // A 0 in /Widths is a glyph that does not advance: a soft hyphen left
                // undrawn, or every glyph of a font of Hangul vowels that draw to the left of
                // their origin, over the consonant before (kotex's yettext.pdf, whose words
                // ran together when the vowels took a default width).
                for code in 0..256u32 {
                    if w.covers(code as usize) {
                        widths.insert(code, w.get(code as usize));
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
            glyph_frame = font_matrix.and_then(|m| type3::glyph_frame(m, &widths, width_scale));
            numbered_from_zero = names::numbered_from_zero(&code_named, font.encoding());
            // The TeX layout of code-named glyphs, told by their widths (see `TexLayout::of`).
            if let Some(layout) = TexLayout::of(&code_named, &widths) {
                for &code in &code_named {
                    if let Some(text) = layout.text(code, script) {
                        table[code as usize] = Some(text);
                        table_loss[code as usize] = None;
                    }
                }
            }
        }
        let standard = if !two_byte && widths.is_empty() {
            standard_widths(&base_font)
        } else {
            None
        };
        let composite = two_byte.then(|| Composite::new(font, resolve, truetype, unknown));
        Self {
            to_unicode,
            table,
            table_loss,
            composite,
            widths,
            standard,
            default_width,
            width_scale,
            glyph_frame,
            numbered_from_zero,
        }
    }

    /// Whether the font is a Type3 whose glyph names number every code from 0 up (at least
    /// [`names::IN_ORDER_OF_USE_MIN`]), as Ghostscript numbered bitmap glyphs in the order a
    /// document first uses them.
    pub fn numbered_from_zero(&self) -> bool {
        self.numbered_from_zero > 0
    }

    /// Takes the font's codes for numbers in order of first use, not characters: its glyphs
    /// are reported lost with their names. Ghostscript 5.50 to 7.06 renumbered dvips' bitmap
    /// glyphs so (GemPrimer.pdf, elhyphen's anc-test.pdf and compound.pdf, greektexdoc.pdf:
    /// pages 1 begin "\"!$# &%" and "!!\" #%$"), and read as ASCII their codes gave printable
    /// garbage, which every reader prints alike.
    pub fn forget_code_names(&mut self) {
        for code in 0..self.numbered_from_zero.min(256) {
            self.table[code] = None;
            self.table_loss[code] = Some(Loss::UnmappedGlyphNames);
        }
    }

    /// How a Type3 font's own matrix turns, reflects or sizes its glyphs, where it does: the
    /// glyph's frame on the page is this, then the text's.
    pub fn glyph_frame(&self) -> Option<[f32; 4]> {
        self.glyph_frame
    }

    /// Whether the font writes vertically (WMode 1: Identity-V, UniJIS-UCS2-V): each glyph
    /// moves the pen down by its [`Glyph::width`], not across.
    pub fn vertical(&self) -> bool {
        self.composite.as_ref().is_some_and(Composite::vertical)
    }

    /// Decodes the bytes of one string operand into glyphs.
    pub fn decode(&self, bytes: &[u8]) -> Vec<Glyph> {
        let mut out = Vec::with_capacity(bytes.len());
        if let Some(composite) = &self.composite {
            composite.decode(self.to_unicode.as_ref(), bytes, &mut out);
        } else {
            for &b in bytes {
                let from_encoding = || self.table[b as usize].clone();
                let text = match self.to_unicode.as_ref().and_then(|m| m.get(b as u16)) {
                    // A control character is no text, where the encoding names one: Ghostscript
                    // 9.04 maps the "c" of dvips' bitmap fonts to U+000D ("fun tion" in
                    // Maxima's rkf45.pdf, as pdftotext reads it).
                    Some(t) if !t.is_empty() && t.chars().all(char::is_control) => {
                        from_encoding().unwrap_or_else(|| t.to_string())
                    }
                    Some(t) => t.to_string(),
                    None => from_encoding().unwrap_or_default(),
                };
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
