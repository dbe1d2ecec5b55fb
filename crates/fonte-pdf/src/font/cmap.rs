//! Embedded CMaps (PDF 32000-1, 9.7.5): a Type0 font's /Encoding may be a stream that says how
//! many bytes each code takes (its codespace ranges) and which CID each code selects, instead
//! of a predefined name. Producers use them for one-byte codes in CID fonts: callas pdfToolbox
//! wrote Amazon's sustainability report so (PyMuPDF's test_3594.pdf), and read two bytes at a
//! time, as Identity-H codes, three quarters of its glyphs were lost.

use pdf::object::NoResolve;
use pdf::parser::{parse_with_lexer, Lexer, ParseFlags};
use pdf::primitive::Primitive;

/// At most this many ranges and mappings are read from one CMap (a real one has a few
/// hundred; a hostile one could declare millions).
const MOST: usize = 1 << 16;

/// Codes -> CIDs of one embedded CMap (or of a predefined one: `predefined::cid_cmap`).
#[derive(Debug, Default, Clone)]
pub(super) struct EmbeddedCMap {
    /// Codespace ranges: the first and last code, as bytes of the code's length (1 to 4).
    spaces: Vec<(Vec<u8>, Vec<u8>)>,
    /// (first code, last code, CID of the first), sorted by first code.
    cids: Vec<(u32, u32, u32)>,
    /// Whether it builds on Identity-H or -V (`usecmap`): codes it does not map are their CIDs.
    identity: bool,
    /// Whether its writing mode is vertical (`/WMode 1`, or built on a -V CMap).
    pub(super) vertical: bool,
}

impl EmbeddedCMap {
    /// The CMap in `data`; `None` when it declares no codespace (then it says nothing usable).
    pub(super) fn parse(data: &[u8]) -> Option<Self> {
        let mut lexer = Lexer::new(data);
        let mut cmap = EmbeddedCMap::default();
        let mut previous = Vec::new();
        let next = |lexer: &mut Lexer| {
            parse_with_lexer(lexer, &NoResolve, ParseFlags::STRING | ParseFlags::INTEGER)
        };
        while let Ok(token) = lexer.next() {
            let token = token.as_slice().to_vec();
            match token.as_slice() {
                b"begincodespacerange" => {
                    while let (Ok(Primitive::String(lo)), Ok(Primitive::String(hi))) =
                        (next(&mut lexer), next(&mut lexer))
                    {
                        let (lo, hi) = (lo.as_bytes().to_vec(), hi.as_bytes().to_vec());
                        if (1..=4).contains(&lo.len())
                            && lo.len() == hi.len()
                            && cmap.spaces.len() < MOST
                        {
                            cmap.spaces.push((lo, hi));
                        }
                    }
                }
                b"begincidchar" => {
                    while let (Ok(Primitive::String(code)), Ok(Primitive::Integer(cid))) =
                        (next(&mut lexer), next(&mut lexer))
                    {
                        if let (Some(code), Ok(cid)) = (value(code.as_bytes()), u32::try_from(cid))
                        {
                            cmap.add(code, code, cid);
                        }
                    }
                }
                b"begincidrange" => {
                    while let (
                        Ok(Primitive::String(lo)),
                        Ok(Primitive::String(hi)),
                        Ok(Primitive::Integer(cid)),
                    ) = (next(&mut lexer), next(&mut lexer), next(&mut lexer))
                    {
                        if let (Some(lo), Some(hi), Ok(cid)) = (
                            value(lo.as_bytes()),
                            value(hi.as_bytes()),
                            u32::try_from(cid),
                        ) {
                            if lo <= hi {
                                cmap.add(lo, hi, cid);
                            }
                        }
                    }
                }
                b"usecmap" => {
                    cmap.identity |= previous.starts_with(b"/Identity-");
                    cmap.vertical |= previous.ends_with(b"-V");
                }
                b"1" if previous == b"/WMode" => cmap.vertical = true,
                _ => {}
            }
            previous = token;
        }
        cmap.cids.sort_by_key(|&(lo, _, _)| lo);
        (!cmap.spaces.is_empty()).then_some(cmap)
    }

    /// A CMap of these codespace ranges and (first code, last code, CID of the first) ranges.
    pub(super) fn from_ranges(
        spaces: Vec<(Vec<u8>, Vec<u8>)>,
        mut cids: Vec<(u32, u32, u32)>,
    ) -> Self {
        cids.sort_by_key(|&(lo, _, _)| lo);
        Self {
            spaces,
            cids,
            ..Self::default()
        }
    }

    fn add(&mut self, lo: u32, hi: u32, cid: u32) {
        if self.cids.len() < MOST {
            self.cids.push((lo, hi, cid));
        }
    }

    /// How many bytes the code at the start of `bytes` takes: the length of the codespace
    /// range it falls in, each byte within that range's bytes (9.7.6.2); where none matches,
    /// the shortest range's length (9.7.6.3: the code then selects CID 0).
    pub(super) fn len(&self, bytes: &[u8]) -> usize {
        let fits = |(lo, hi): &(Vec<u8>, Vec<u8>)| {
            bytes.len() >= lo.len()
                && bytes
                    .iter()
                    .zip(lo.iter().zip(hi))
                    .all(|(b, (l, h))| l <= b && b <= h)
        };
        match self.spaces.iter().find(|s| fits(s)) {
            Some((lo, _)) => lo.len(),
            None => self
                .spaces
                .iter()
                .map(|(lo, _)| lo.len())
                .min()
                .unwrap_or(1),
        }
    }

    /// The CID that `code` selects: by the CMap's mappings, else itself under Identity, else
    /// 0 (.notdef).
    pub(super) fn cid(&self, code: u32) -> u32 {
        let after = self.cids.partition_point(|&(lo, _, _)| lo <= code);
        // Ranges seldom overlap; where they do, any that holds the code is taken.
        self.cids[..after]
            .iter()
            .rev()
            .take(8)
            .find(|&&(lo, hi, _)| code <= hi && code >= lo)
            .map(|&(lo, _, cid)| cid.saturating_add(code - lo))
            .unwrap_or(if self.identity { code } else { 0 })
    }
}

/// A code's bytes as a number (big-endian, 1 to 4 bytes).
pub(super) fn value(bytes: &[u8]) -> Option<u32> {
    (1..=4)
        .contains(&bytes.len())
        .then(|| bytes.iter().fold(0u32, |v, &b| v << 8 | b as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CALLAS: &[u8] = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /FGSKAX-CMap def /CMapType 1 def
1 begincodespacerange <20> <96> endcodespacerange
2 begincidchar <20> 1 <3f> 23 endcidchar
1 begincidrange <61> <7a> 40 endcidrange
endcmap CMapName currentdict /CMap defineresource pop end end";

    #[test]
    fn one_byte_codes_select_their_cids() {
        let cmap = EmbeddedCMap::parse(CALLAS).unwrap();
        assert_eq!(cmap.len(b"ab"), 1);
        assert_eq!(cmap.cid(0x20), 1);
        assert_eq!(cmap.cid(0x3f), 23);
        assert_eq!(cmap.cid(0x61), 40);
        assert_eq!(cmap.cid(0x7a), 65);
        assert_eq!(cmap.cid(0x21), 0);
    }

    #[test]
    fn mixed_lengths_follow_the_codespace_and_identity_fills_the_rest() {
        let cmap = EmbeddedCMap::parse(
            b"/Identity-H usecmap 2 begincodespacerange <00> <80> <8140> <9ffc> endcodespacerange",
        )
        .unwrap();
        assert_eq!(cmap.len(b"\x41\x81\x40"), 1);
        assert_eq!(cmap.len(b"\x81\x40"), 2);
        // A byte no range starts with takes the shortest range's length.
        assert_eq!(cmap.len(b"\xff\x40"), 1);
        assert_eq!(cmap.cid(0x8140), 0x8140);
        assert!(EmbeddedCMap::parse(b"begincmap endcmap").is_none());
    }
}
