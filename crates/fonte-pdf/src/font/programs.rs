//! The built-in encoding of an embedded font program (code -> glyph name): Type1's
//! `dup <code> /<name> put` entries, or a CFF program's encoding and charset.

use std::collections::HashMap;

/// Code -> glyph name of an embedded CFF program (FontFile3 /Type1C), through its own encoding
/// and charset; `None` when the bytes are not a CFF font. Found on TeX Live's `txfontsdoc.pdf`
/// (Times-Roman subsets with a custom built-in encoding and no ToUnicode: 0.57 word F1,
/// reported complete).
pub(super) fn cff_builtin_encoding(program: &[u8]) -> Option<HashMap<u8, String>> {
    // A CFF header starts with major version 1; a Type1 program with "%!" or 0x80 (PFB).
    if program.first() != Some(&1) {
        return None;
    }
    let table = ttf_parser::cff::Table::parse(program)?;
    let map = (0..=255u8)
        .filter_map(|code| {
            let gid = table.glyph_index(code)?;
            // Glyph 0 is .notdef: an unmapped code.
            (gid.0 != 0)
                .then(|| table.glyph_name(gid))
                .flatten()
                .map(|name| (code, name.to_string()))
        })
        .collect();
    Some(map)
}

/// `dup <code> /<name> put` entries of an embedded Type1 font program's /Encoding.
pub(super) fn type1_builtin_encoding(program: &[u8]) -> HashMap<u8, String> {
    let mut out = HashMap::new();
    // The encoding sits in the clear-text part, before `eexec`.
    let clear = match program.windows(5).position(|w| w == b"eexec") {
        Some(end) => &program[..end],
        None => program,
    };
    let text = String::from_utf8_lossy(clear);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    for w in tokens.windows(4) {
        if w[0] == "dup" && w[3] == "put" {
            if let (Ok(code), Some(name)) = (w[1].parse::<u16>(), w[2].strip_prefix('/')) {
                if let Ok(code) = u8::try_from(code) {
                    out.insert(code, name.to_string());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdf::file::FileOptions;

    /// The fonts of page `page` of a shared fixture, loaded.
    fn fonts_of(rel: &str, page: u32) -> Vec<(String, Vec<u8>)> {
        let path = std::env::var_os("FONTE_SHARED")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| {
                std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
            })
            .join("fixtures/pdfs")
            .join(rel);
        let file = FileOptions::cached()
            .parse_options(pdf::object::ParseOptions::tolerant())
            .load(std::fs::read(&path).unwrap())
            .unwrap();
        let resolver = file.resolver();
        let page = file.get_page(page).unwrap();
        let mut out = Vec::new();
        for lazy in page.resources().unwrap().fonts.values() {
            let Ok(font) = lazy.load(&resolver) else {
                continue;
            };
            let name = font
                .name
                .as_ref()
                .map(|n| n.to_string())
                .unwrap_or_default();
            if let Some(Ok(data)) = font.embedded_data(&resolver) {
                out.push((name, data.to_vec()));
            }
        }
        out
    }

    #[test]
    fn a_cff_program_gives_its_built_in_encoding() {
        // debian-faq.en.pdf embeds CMMI9 as a CFF subset with its built-in encoding and no
        // ToUnicode (pdffonts: "Type 1C, Builtin, uni no").
        let fonts: Vec<(String, Vec<u8>)> = (0..73)
            .flat_map(|p| fonts_of("en/debian-faq.en.pdf", p))
            .filter(|(n, _)| n.contains("CMMI9"))
            .collect();
        let (_, program) = fonts.first().expect("CMMI9 on some page");
        let map = cff_builtin_encoding(program).expect("a CFF program");
        assert!(!map.is_empty());
        // Its glyphs are Computer Modern math italic names, each one the font's own.
        assert!(
            map.values().all(|n| !n.is_empty() && n != ".notdef"),
            "{map:?}"
        );
        // A Type1 program or anything else is not taken for CFF.
        assert!(cff_builtin_encoding(b"%!PS-AdobeFont-1.0: CMR10").is_none());
    }
}
