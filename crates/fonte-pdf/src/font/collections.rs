//! The text of a CID in the four Adobe CJK character collections (Adobe-Japan1, -GB1, -CNS1,
//! -Korea1), for a CID font without ToUnicode that names one of them in its /CIDSystemInfo: a
//! CID of such a font is a character of the collection, whatever program draws it (often none
//! is embedded: Ryumin-Light, STSong-Light). This is what pdftotext, MuPDF and pdf.js read such
//! files through; without it every glyph of a Japanese file with Identity-H codes was lost
//! (pdfminer's jo.pdf, kampo.pdf).
//!
//! The tables are Adobe's own Adobe-*-UCS2 CMaps (BSD-3-Clause) as `scripts/cid_collections.py` (in this crate)
//! writes them (`data/cid/`: zlib, line i the text of CID i), decoded on first use.

use std::io::Read;
use std::sync::OnceLock;

use pdf::object::Resolve;
use pdf::primitive::{Dictionary, Primitive};

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Collection {
    Japan1,
    Gb1,
    Cns1,
    Korea1,
}

/// One collection's CIDs: their texts one after another, and where each ends.
struct Table {
    text: String,
    ends: Vec<u32>,
}

impl Collection {
    /// The collection a descendant font's /CIDSystemInfo names (registry Adobe), if one of the
    /// four.
    pub(super) fn of(info: &Dictionary, resolve: &impl Resolve) -> Option<Self> {
        let string = |key: &str| match info.get(key)?.clone().resolve(resolve).ok()? {
            Primitive::String(s) => Some(s.as_bytes().to_vec()),
            Primitive::Name(n) => Some(n.as_bytes().to_vec()),
            _ => None,
        };
        if string("Registry")? != b"Adobe" {
            return None;
        }
        match string("Ordering")?.as_slice() {
            b"Japan1" => Some(Self::Japan1),
            b"GB1" => Some(Self::Gb1),
            b"CNS1" => Some(Self::Cns1),
            b"Korea1" => Some(Self::Korea1),
            _ => None,
        }
    }

    /// The text of `cid`; `None` where the collection has no character for it (and for CID 0,
    /// .notdef).
    pub(super) fn text(self, cid: u16) -> Option<&'static str> {
        let table = self.table();
        let i = cid as usize;
        let end = *table.ends.get(i)? as usize;
        let start = match i {
            0 => 0,
            _ => table.ends[i - 1] as usize + 1,
        };
        Some(&table.text[start..end]).filter(|t| !t.is_empty())
    }

    fn table(self) -> &'static Table {
        static TABLES: [OnceLock<Table>; 4] = [const { OnceLock::new() }; 4];
        let (slot, data): (usize, &'static [u8]) = match self {
            Self::Japan1 => (0, include_bytes!("../../data/cid/Japan1.txt.z")),
            Self::Gb1 => (1, include_bytes!("../../data/cid/GB1.txt.z")),
            Self::Cns1 => (2, include_bytes!("../../data/cid/CNS1.txt.z")),
            Self::Korea1 => (3, include_bytes!("../../data/cid/Korea1.txt.z")),
        };
        TABLES[slot].get_or_init(|| Table::decode(data))
    }
}

impl Table {
    fn decode(data: &[u8]) -> Self {
        let mut text = String::new();
        // The data is this crate's own (checked by the test below): a failure leaves the table
        // empty, every CID unmapped, rather than a panic.
        if flate2::read::ZlibDecoder::new(data)
            .read_to_string(&mut text)
            .is_err()
        {
            text.clear();
        }
        let ends = text
            .match_indices('\n')
            .map(|(i, _)| i as u32)
            .chain(std::iter::once(text.len() as u32))
            .collect();
        Self { text, ends }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_collection_reads_its_roman_and_its_ideographs() {
        // Every collection starts with the proportional Roman glyphs: space = CID 1, A = 34.
        for c in [
            Collection::Japan1,
            Collection::Gb1,
            Collection::Cns1,
            Collection::Korea1,
        ] {
            assert_eq!(c.text(1), Some(" "), "{c:?}");
            assert_eq!(c.text(34), Some("A"), "{c:?}");
            assert_eq!(c.text(0), None, "{c:?}: .notdef");
            assert_eq!(c.text(u16::MAX), None, "{c:?}: past the collection");
        }
        // Adobe-Japan1: CID 843 is あ, 1125 亜 (Technical Note #5078); a variant's selector is
        // left out.
        assert_eq!(Collection::Japan1.text(843), Some("あ"));
        assert_eq!(Collection::Japan1.text(1125), Some("亜"));
        assert_eq!(Collection::Japan1.text(1133), Some("逢"));
        // Adobe-GB1: CID 4559 is 中.
        assert_eq!(Collection::Gb1.text(4559), Some("中"));
    }
}
