//! The text of a glyph from an embedded TrueType program's own tables, for fonts whose PDF
//! dictionary does not say (no ToUnicode, no usable encoding): the program's Unicode `cmap`
//! read backwards (glyph -> the character that selects it), else the glyph's `post` name
//! through the Adobe Glyph List. This is what poppler falls back to as well.

use std::collections::HashMap;

use pdf::font::{Font, FontData};
use ttf_parser::cmap::{Format, Subtable};
use ttf_parser::{GlyphId, RawFace, Tag};

use super::names::glyph_name_text;
use super::Loss;

/// What an embedded TrueType program says about its glyphs.
pub(super) struct TrueTypeTables {
    /// Glyph -> the first Unicode character its Unicode cmap maps to it.
    unicode: HashMap<u16, char>,
    /// Glyph -> its `post` name.
    names: HashMap<u16, String>,
    /// Single-byte code -> glyph, through a (3,0) symbol cmap (codes at 0xF000 + code, or the
    /// code itself) or a (1,0) Macintosh one: how a symbolic simple TrueType font selects
    /// its glyphs (PDF 32000-1, 9.6.6.4).
    by_code: [Option<u16>; 256],
}

impl TrueTypeTables {
    /// Reads `program`; `None` when it is not a TrueType font at all. A program without a
    /// cmap or glyph names (most CID subsets) reads as tables that say nothing.
    pub(super) fn parse(program: &[u8]) -> Option<Self> {
        let face = RawFace::parse(program, 0).ok()?;
        let mut unicode = HashMap::new();
        let mut by_code = [None; 256];
        if let Some(cmap) = table(&face, b"cmap").and_then(ttf_parser::cmap::Table::parse) {
            let subtables: Vec<Subtable> = cmap.subtables.into_iter().collect();
            for sub in subtables.iter().filter(|s| s.is_unicode()) {
                reverse_into(sub, &mut unicode);
            }
            // A symbol or Macintosh cmap selects by code; a Unicode one, for a symbolic font
            // without either, by the code taken as a character.
            let by_symbol = subtables.iter().filter(|s| is_symbol_or_mac(s));
            let by_unicode = subtables.iter().filter(|s| s.is_unicode());
            for sub in by_symbol.chain(by_unicode) {
                for (code, slot) in by_code.iter_mut().enumerate() {
                    if slot.is_none() {
                        let code = code as u32;
                        *slot = [code, 0xF000 + code, 0xF100 + code, 0xF200 + code]
                            .into_iter()
                            .find_map(|c| sub.glyph_index(c))
                            .map(|g| g.0);
                    }
                }
            }
        }
        let mut names = HashMap::new();
        if let Some(post) = table(&face, b"post").and_then(ttf_parser::post::Table::parse) {
            // Glyphs are numbered up to 65535; a hostile table cannot make this loop longer.
            for (gid, name) in post.names().enumerate().take(u16::MAX as usize) {
                if !name.is_empty() && name != ".notdef" {
                    names.insert(gid as u16, name.to_string());
                }
            }
        }
        Some(Self {
            unicode,
            names,
            by_code,
        })
    }

    /// The glyph a single-byte code selects, through the program's symbol or Macintosh cmap.
    pub(super) fn glyph_of_code(&self, code: u8) -> Option<u16> {
        self.by_code[code as usize]
    }

    /// The text of glyph `gid`, or why there is none.
    pub(super) fn text(&self, gid: u16) -> Result<String, Loss> {
        if let Some(c) = self.unicode.get(&gid) {
            return Ok(c.to_string());
        }
        match self.names.get(&gid) {
            Some(name) => glyph_name_text(name).ok_or(Loss::UnmappedGlyphNames),
            None => Err(Loss::NoUnicode),
        }
    }
}

/// The program's table `tag`, wherever its directory lists it. ttf-parser looks tables up by
/// binary search, as the directory's order (by tag) allows, but subsetters write unsorted
/// directories ("head", "hhea", "loca", … "cmap", "post": a New York tax form's Arial subsets,
/// PyMuPDF's test_2954.pdf, whose cmap was never found, every glyph lost) and readers
/// (FreeType, pdf.js) find them anyway.
fn table<'a>(face: &RawFace<'a>, tag: &[u8; 4]) -> Option<&'a [u8]> {
    let tag = Tag::from_bytes(tag);
    face.table(tag).or_else(|| {
        let record = face.table_records.into_iter().find(|r| r.tag == tag)?;
        let start = record.offset as usize;
        face.data
            .get(start..start.checked_add(record.length as usize)?)
    })
}

fn is_symbol_or_mac(sub: &Subtable) -> bool {
    use ttf_parser::PlatformId;
    matches!(
        (sub.platform_id, sub.encoding_id),
        (PlatformId::Windows, 0) | (PlatformId::Macintosh, 0)
    )
}

/// Adds glyph -> character for every Basic Multilingual Plane character `sub` maps (the first
/// character wins, so a glyph reached by both 'A' and a compatibility form reads 'A').
fn reverse_into(sub: &Subtable, out: &mut HashMap<u16, char>) {
    let mut add = |cp: u32| {
        if let (Some(g), Some(c)) = (sub.glyph_index(cp), char::from_u32(cp)) {
            if !c.is_control() {
                out.entry(g.0).or_insert(c);
            }
        }
    };
    match sub.format {
        // Bounded by their 16-bit codes: walk what they map.
        Format::ByteEncodingTable(_)
        | Format::SegmentMappingToDeltaValues(_)
        | Format::TrimmedTableMapping(_) => sub.codepoints(|cp| {
            if cp <= 0xFFFF {
                add(cp)
            }
        }),
        // Formats with 32-bit ranges: a hostile group could span four billion characters, so
        // only the Basic Multilingual Plane is looked up, one character at a time.
        _ => (0..=0xFFFFu32).for_each(add),
    }
    // Glyph 0 is .notdef, never text.
    out.remove(&GlyphId(0).0);
}

/// Whether `font`'s program is a TrueType or OpenType one (by its subtype, or the program's
/// own magic number for the OpenType programs of FontFile3).
pub(super) fn is_truetype(font: &Font, data: &[u8]) -> bool {
    use pdf::font::FontType;
    let descendant_truetype = match &font.data {
        FontData::Type0(t) => t
            .descendant_fonts
            .first()
            .is_some_and(|d| matches!(d.subtype, FontType::CIDFontType2)),
        _ => false,
    };
    let magic = data
        .get(..4)
        .is_some_and(|m| m == [0, 1, 0, 0] || m == b"true" || m == b"OTTO" || m == b"ttcf");
    matches!(font.data, FontData::TrueType(_) | FontData::CIDFontType2(_))
        || descendant_truetype
        || magic
}
