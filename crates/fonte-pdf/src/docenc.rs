//! PDF text strings (the document's /Title): UTF-16BE or UTF-8 after their byte-order marks,
//! else PDFDocEncoding (PDF 32000-1:2008, Annex D). The `pdf` crate's lossy decoder reads
//! anything without a UTF-16 mark as UTF-8, so "Canônico" in PDFDocEncoding came out as
//! "Can�nico" (abntex2-modelo-artigo.pdf's title).

/// PDFDocEncoding's bytes 0x80..=0x9F, which differ from Latin-1 (0x9F is undefined).
const HIGH: [char; 32] = [
    '•', '†', '‡', '…', '—', '–', 'ƒ', '⁄', '‹', '›', '−', '‰', '„', '“', '”', '‘', '’', '‚', '™',
    'ﬁ', 'ﬂ', 'Ł', 'Œ', 'Š', 'Ÿ', 'Ž', 'ı', 'ł', 'œ', 'š', 'ž', '\u{FFFD}',
];

/// Bytes 0x18..=0x1F: accents on their own.
const LOW: [char; 8] = ['˘', 'ˇ', 'ˆ', '˙', '˝', '˛', '˚', '˜'];

/// Decodes a PDF text string.
pub fn text_string(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|p| u16::from_be_bytes([p[0], p[1]]))
            .collect();
        return String::from_utf16_lossy(&units);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(rest).into_owned();
    }
    bytes
        .iter()
        .map(|&b| match b {
            0x18..=0x1F => LOW[(b - 0x18) as usize],
            0x80..=0x9F => HIGH[(b - 0x80) as usize],
            0xA0 => '€',
            0xAD => '\u{FFFD}',
            _ => b as char,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_encoding_of_a_title() {
        assert_eq!(
            text_string(b"Modelo Can\xf4nico de Artigo cient\xedfico"),
            "Modelo Canônico de Artigo científico"
        );
        assert_eq!(text_string(b"\xfe\xff\x00C\x00a\x00n\x00\xf4"), "Canô");
        assert_eq!(text_string("\u{FEFF}Canônico".as_bytes()), "Canônico");
        assert_eq!(text_string(b"\x8dquoted\x8e \x84\x93"), "“quoted” —ﬁ");
        assert_eq!(text_string(b"plain"), "plain");
    }
}
