//! Predefined CMaps (PDF 32000-1, 9.7.5.2) that a CID font without ToUnicode can still be read
//! through: those whose codes are Unicode, and those whose codes select CIDs of an Adobe CJK
//! collection (H, 90ms-RKSJ-H, GBK-EUC-H, B5pc-H, KSC-EUC-H…), by Adobe's own tables.

use std::collections::HashMap;
use std::io::Read;
use std::sync::OnceLock;

use super::cmap::EmbeddedCMap;
use super::collections::Collection;

/// The predefined CMaps whose codes are the characters themselves (Uni…-UCS2-H, -UTF16-H,
/// -UTF32-H and Adobe's -UTF8-H, horizontal or vertical, of the four CJK collections), which iText and other
/// writers use with a non-embedded CJK font (STSong-Light, HeiseiMin-W3) and no ToUnicode.
/// Viewers read the text from the code; without this every glyph of such a file was lost
/// (pdf2docx's demo-table-lattice.pdf, UniGB-UCS2-H).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum UnicodeCodes {
    /// Two bytes a code, a UCS-2 character.
    Ucs2,
    /// UTF-16: two bytes, or four for a surrogate pair.
    Utf16,
    /// Four bytes a code.
    Utf32,
    /// UTF-8: one to four bytes, as the lead byte says (Adobe publishes UniJIS-UTF8-H and
    /// the like with its other Unicode CMaps, though PDF's list of predefined CMaps omits
    /// them: viewers that know Adobe's CMaps read them).
    Utf8,
}

impl UnicodeCodes {
    pub(super) fn of(cmap: &str) -> Option<Self> {
        if !cmap.starts_with("Uni") {
            return None;
        }
        let form = cmap.split('-').nth(1)?;
        match form {
            "UCS2" => Some(Self::Ucs2),
            "UTF16" => Some(Self::Utf16),
            "UTF32" => Some(Self::Utf32),
            "UTF8" => Some(Self::Utf8),
            _ => None,
        }
    }

    /// The byte length of the code at the start of `bytes`.
    pub(super) fn len(self, bytes: &[u8]) -> usize {
        match self {
            Self::Ucs2 => 2,
            Self::Utf32 => 4,
            Self::Utf16 => match bytes {
                [0xD8..=0xDB, _, 0xDC..=0xDF, _, ..] => 4,
                _ => 2,
            },
            // Adobe's codespace: <00>-<7F>, <C080>-<DFBF>, <E08080>-<EFBFBF>,
            // <F0808080>-<F7BFBFBF>; any other byte is a one-byte code of its own.
            Self::Utf8 => match bytes.first() {
                Some(0xC0..=0xDF) => 2,
                Some(0xE0..=0xEF) => 3,
                Some(0xF0..=0xF7) => 4,
                _ => 1,
            },
        }
    }

    /// The character of one code, if it is one.
    pub(super) fn text(self, code: &[u8]) -> Option<char> {
        match (self, code) {
            (Self::Utf8, code) => std::str::from_utf8(code).ok()?.chars().next(),
            (Self::Utf16, [a, b, c, d]) => {
                char::decode_utf16([u16::from_be_bytes([*a, *b]), u16::from_be_bytes([*c, *d])])
                    .next()?
                    .ok()
            }
            (_, [a, b]) => char::from_u32(u16::from_be_bytes([*a, *b]) as u32),
            (Self::Utf32, [a, b, c, d]) => char::from_u32(u32::from_be_bytes([*a, *b, *c, *d])),
            _ => None,
        }
    }
}

/// The CID of a printable ASCII character in each of the four Adobe CJK collections (Japan1,
/// GB1, CNS1, Korea1 all start with the 95 proportional Roman glyphs, space = CID 1): for its
/// width under a Unicode CMap, whose code says the character but not the CID.
pub(super) fn roman_cid(c: char) -> Option<usize> {
    (' '..='~').contains(&c).then(|| c as usize - 31)
}

/// The code -> CID map of a predefined CMap whose codes are not Unicode (Table 118's H,
/// 90ms-RKSJ-H, EUC-H, GBK-EUC-H, B5pc-H, KSC-EUC-H…, and the others Adobe publishes for the
/// four collections), with the collection its CIDs are of. A -V CMap reads as its -H: it swaps
/// some codes for vertical variants, whose text is the same but for a few punctuation marks,
/// brackets, arrows and box drawings, where the -H gives the character the author typed (（,
/// not the presentation form ︵; →, not the rotated glyph's ↓). Without these, dvipdfm's Japanese in a non-embedded Ryumin-Light under
/// `H` lost every glyph (ipadic-common's ipadic-ja.pdf), as old Acrobat's 90ms-RKSJ-H did.
///
/// The tables are Adobe's CMaps (BSD-3-Clause) as `scripts/cid_collections.py` (in this crate) writes them
/// (`data/cid/cmaps.bin.z`, 44 KB), decoded on first use.
pub(super) fn cid_cmap(name: &str) -> Option<&'static (EmbeddedCMap, Collection)> {
    static TABLES: OnceLock<HashMap<String, (EmbeddedCMap, Collection)>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| decode_cmaps(include_bytes!("../../data/cid/cmaps.bin.z")));
    let horizontal = match name {
        "V" => "H".to_string(),
        _ => match name.strip_suffix("-V") {
            Some(stem) => format!("{stem}-H"),
            None => name.to_string(),
        },
    };
    tables.get(&horizontal)
}

/// The records of `cmaps.bin.z` (format in `scripts/cid_collections.py` (in this crate)). The data is this
/// crate's own (checked by the tests below): a failure ends the table where it happens rather
/// than panicking.
fn decode_cmaps(data: &[u8]) -> HashMap<String, (EmbeddedCMap, Collection)> {
    let mut bytes = Vec::new();
    if flate2::read::ZlibDecoder::new(data)
        .read_to_end(&mut bytes)
        .is_err()
    {
        return HashMap::new();
    }
    let mut reader = Records { bytes: &bytes };
    std::iter::from_fn(|| reader.record()).collect()
}

/// A cursor over the decoded records.
struct Records<'a> {
    bytes: &'a [u8],
}

impl<'a> Records<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.bytes.split_at_checked(n)?;
        self.bytes = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn zigzag(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn record(&mut self) -> Option<(String, (EmbeddedCMap, Collection))> {
        let length = self.byte()? as usize;
        let name = String::from_utf8(self.take(length)?.to_vec()).ok()?;
        let collection = match self.byte()? {
            0 => Collection::Japan1,
            1 => Collection::Gb1,
            2 => Collection::Cns1,
            3 => Collection::Korea1,
            _ => return None,
        };
        let spaces = (0..self.varint()?)
            .map(|_| {
                let n = self.byte()? as usize;
                Some((self.take(n)?.to_vec(), self.take(n)?.to_vec()))
            })
            .collect::<Option<Vec<_>>>()?;
        let (mut code, mut cid) = (0i64, 0i64);
        let ranges = (0..self.varint()?)
            .map(|_| {
                let lo = code + self.zigzag()?;
                let hi = lo + self.varint()? as i64;
                let first = cid + self.zigzag()?;
                (code, cid) = (hi, first + (hi - lo));
                Some((
                    u32::try_from(lo).ok()?,
                    u32::try_from(hi).ok()?,
                    u32::try_from(first).ok()?,
                ))
            })
            .collect::<Option<Vec<_>>>()?;
        Some((
            name,
            (EmbeddedCMap::from_ranges(spaces, ranges), collection),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_cmaps_are_told_by_name_and_split_their_codes() {
        assert_eq!(UnicodeCodes::of("UniGB-UCS2-H"), Some(UnicodeCodes::Ucs2));
        assert_eq!(
            UnicodeCodes::of("UniJIS-UCS2-HW-V"),
            Some(UnicodeCodes::Ucs2)
        );
        assert_eq!(
            UnicodeCodes::of("UniJIS2004-UTF16-H"),
            Some(UnicodeCodes::Utf16)
        );
        assert_eq!(UnicodeCodes::of("UniKS-UTF32-V"), Some(UnicodeCodes::Utf32));
        assert_eq!(UnicodeCodes::of("90ms-RKSJ-H"), None);
        assert_eq!(UnicodeCodes::of("UniGB-UTF8-H"), Some(UnicodeCodes::Utf8));
        assert_eq!(UnicodeCodes::of("UniGB-EUC-H"), None);
        let utf16 = UnicodeCodes::Utf16;
        assert_eq!(utf16.len(&[0xD8, 0x40, 0xDC, 0x0B, 0x00, 0x20]), 4);
        assert_eq!(utf16.len(&[0x65, 0xE5, 0x67, 0x2C]), 2);
        assert_eq!(utf16.text(&[0xD8, 0x40, 0xDC, 0x0B]), Some('𠀋'));
        // A lone surrogate is no character.
        assert_eq!(utf16.text(&[0xD8, 0x40]), None);
        assert_eq!(UnicodeCodes::Ucs2.text(&[0x4E, 0x2D]), Some('中'));
        assert_eq!(roman_cid('A'), Some(34));
        assert_eq!(roman_cid('中'), None);
    }

    #[test]
    fn codes_of_the_predefined_cjk_cmaps_select_the_collections_characters() {
        // (CMap, code bytes, its character) from the JIS X 0208, Shift-JIS, GB 2312/GBK, Big5
        // and KS X 1001 code charts.
        let cases: [(&str, &[u8], &str); 9] = [
            ("H", b"\x30\x21", "亜"),
            ("V", b"\x24\x22", "あ"),
            ("90ms-RKSJ-H", b"\x88\x9f", "亜"),
            ("90ms-RKSJ-H", b"A", "A"),
            ("EUC-H", b"\xb0\xa1", "亜"),
            ("GBK-EUC-H", b"\xd6\xd0", "中"),
            ("B5pc-H", b"\xa4\xa4", "中"),
            ("KSC-EUC-H", b"\xb0\xa1", "가"),
            ("KSCms-UHC-H", b"\x81\x41", "갂"),
        ];
        for (name, code, text) in cases {
            let (cmap, collection) = cid_cmap(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(cmap.len(code), code.len(), "{name}");
            let cid = cmap.cid(super::super::cmap::value(code).unwrap());
            assert_eq!(collection.text(cid as u16), Some(text), "{name} {code:?}");
        }
        assert!(
            cid_cmap("UniJIS-UCS2-H").is_none(),
            "a Unicode CMap is read by its codes"
        );
        assert!(cid_cmap("Nonesuch-H").is_none());
        // Beyond Table 118: the other CMaps Adobe publishes for the collections.
        for name in [
            "RKSJ-H",
            "78-H",
            "GB-H",
            "GBT-EUC-H",
            "HKdla-B5-H",
            "KSC-Johab-V",
        ] {
            assert!(cid_cmap(name).is_some(), "{name}");
        }
    }
}
