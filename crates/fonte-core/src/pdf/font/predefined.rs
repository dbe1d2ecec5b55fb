//! Predefined CMaps (PDF 32000-1, 9.7.5.2) that a CID font without ToUnicode can still be read
//! through: those whose codes are Unicode.

/// The predefined CMaps whose codes are the characters themselves (Uni…-UCS2-H, -UTF16-H,
/// -UTF32-H, horizontal or vertical, of the four CJK collections), which iText and other
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
        }
    }

    /// The character of one code, if it is one.
    pub(super) fn text(self, code: &[u8]) -> Option<char> {
        match (self, code) {
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
        assert_eq!(UnicodeCodes::of("UniGB-UTF8-H"), None);
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
}
