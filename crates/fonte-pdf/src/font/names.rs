//! Glyph names -> text: the Adobe Glyph List, `uniXXXX`/`uXXXX`, TeX's own names, and Type3
//! glyphs named by their codes.

use pdf_encoding::glyphname_to_unicode;

/// Text of a glyph name: AGL, `uniXXXX`, `uXXXX[XX]`, ligature names with underscores.
pub fn glyph_name_text(name: &str) -> Option<String> {
    let base = name.split('.').next().unwrap_or(name);
    if base.is_empty() {
        return None;
    }
    if let Some(s) = glyphname_to_unicode(base) {
        return Some(s.to_string());
    }
    if let Some(hex) = base.strip_prefix("uni") {
        if hex.len() >= 4 && hex.len() % 4 == 0 {
            let chars: Option<String> = hex
                .as_bytes()
                .chunks(4)
                .map(|c| {
                    std::str::from_utf8(c)
                        .ok()
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .and_then(char::from_u32)
                })
                .collect();
            if chars.is_some() {
                return chars;
            }
        }
    }
    if let Some(hex) = base.strip_prefix('u') {
        if (4..=6).contains(&hex.len()) {
            if let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                return Some(c.to_string());
            }
        }
    }
    if base.contains('_') {
        let parts: Option<String> = base.split('_').map(glyph_name_text).collect();
        return parts;
    }
    tex_glyph_text(base).map(String::from)
}

/// Glyph names of the TeX math fonts (cmsy, cmmi, cmex and their Type1 versions) that the
/// Adobe Glyph List lacks. Without them LaTeX documents lose their angle brackets
/// (`\chapter{⟨nome⟩}`), sums and integrals. cmex's sized variants ("parenleftbigg",
/// "summationdisplay") are read as their base glyph.
fn tex_glyph_text(name: &str) -> Option<&'static str> {
    for suffix in ["Bigg", "bigg", "Big", "big", "text", "display"] {
        if let Some(base) = name.strip_suffix(suffix).filter(|b| !b.is_empty()) {
            return glyphname_to_unicode(base).or_else(|| tex_glyph_text(base));
        }
    }
    Some(match name {
        "angbracketleft" => "⟨",
        "angbracketright" => "⟩",
        "asteriskmath" => "∗",
        "diamondmath" => "⋄",
        "minusplus" => "∓",
        "circledivide" => "⊘",
        "circledot" => "⊙",
        "circlecopyrt" => "◯",
        "openbullet" => "◦",
        "equivasymptotic" => "≍",
        "precedesequal" => "⪯",
        "followsequal" => "⪰",
        "precedes" => "≺",
        "follows" => "≻",
        "lessmuch" => "≪",
        "greatermuch" => "≫",
        "lessorsimilar" => "≲",
        "greaterorsimilar" => "≳",
        "similarequal" => "≃",
        "arrownortheast" => "↗",
        "arrowsoutheast" => "↘",
        "arrownorthwest" => "↖",
        "arrowsouthwest" => "↙",
        "arrowbothv" => "↕",
        "arrowdblbothv" => "⇕",
        "squiggleright" => "⇝",
        "owner" => "∋",
        "triangle" => "△",
        "triangleinv" => "▽",
        "triangleleft" => "◁",
        "triangleright" => "▷",
        "triangleleftequal" => "⊴",
        "trianglerightequal" => "⊵",
        "latticetop" => "⊤",
        "unionmulti" => "⊎",
        "unionsq" => "⊔",
        "intersectionsq" => "⊓",
        "subsetsqequal" => "⊑",
        "supersetsqequal" => "⊒",
        "squareimage" => "⊏",
        "squareoriginal" => "⊐",
        "turnstileleft" => "⊢",
        "turnstileright" => "⊣",
        "floorleft" => "⌊",
        "floorright" => "⌋",
        "ceilingleft" => "⌈",
        "ceilingright" => "⌉",
        "bardbl" => "‖",
        "wreathproduct" => "≀",
        "contintegral" => "∮",
        "coproduct" => "∐",
        "lscript" => "ℓ",
        "star" => "⋆",
        "prime" => "′",
        "visiblespace" => "␣",
        // cmmi's variants: \varepsilon is "epsilon1", and so on.
        "epsilon1" => "ε",
        "theta1" => "ϑ",
        "phi1" => "ϕ",
        "rho1" => "ϱ",
        "sigma1" => "ς",
        "omega1" => "ϖ",
        "pi1" => "ϖ",
        // Symbols of cmmi, cmsy and the Latin Modern math fonts that were shown and lost on
        // the wide corpus (cursolatex.pdf, pt-lshort.pdf).
        "arrowlefttophalf" => "↼",
        "arrowleftbothalf" => "↽",
        "arrowrighttophalf" => "⇀",
        "arrowrightbothalf" => "⇁",
        "slurbelow" => "⌣",
        "slurabove" => "⌢",
        "flat" => "♭",
        "natural" => "♮",
        "sharp" => "♯",
        "circleminus" => "⊖",
        "Rfractur" => "ℜ",
        "Ifractur" => "ℑ",
        "nequal" => "≠",
        "nelement" => "∉",
        // Pieces that TeX assembles into another symbol (the bar of ↦, the slash of ≠, the
        // extensible parts of big delimiters, braces and arrows) and math accents drawn over a
        // formula: drawn, but no text of their own, as pdftotext reads them. Known, so not
        // reported as lost.
        "mapsto" | "mapsfrom" | "negationslash" | "vector" | "tildewide" | "tildewider"
        | "tildewidest" | "hatwide" | "hatwider" | "hatwidest" | "vextendsingle"
        | "vextenddouble" | "arrowvertex" | "arrowvertexdbl" | "radicalvertex" | "radicalbt"
        | "radicaltp" | "radicalvertex1" | "arrowtp" | "arrowbt" | "arrowdbltp" | "arrowdblbt"
        | "bracehtipdownleft" | "bracehtipdownright" | "bracehtipupleft" | "bracehtipupright"
        | "braceex" | "bracemid" | "bracetp" | "bracebt" | "arrowhookleft" | "arrowhookright" => "",
        _ => return None,
    })
}

/// A Type3 glyph named by its own code: the bitmap fonts TeX's drivers embed (PK fonts through
/// dvips or pdfTeX) call the glyph at code 97 "a97", and their codes are ASCII where ASCII has
/// a printable character, and the T1 encoding's letters at 0xC0-0xFF: Latin-1's, but for the
/// four places T1 keeps for Œ, SS, œ and ß (where pdftotext, reading Latin-1, writes "×", "ß",
/// "÷" and "ÿ": "gröÿe" for "größe" in edfnotes' PdUsample.pdf, which Fonte lost as "grö e").
/// Shown as that character (found on `latexcheat-ptbr/latexsheet-ptbr.pdf` of Debian's
/// texlive-lang-portuguese: 0.08 word F1, reported complete). Only when the number is the code
/// itself and in those ranges; anything else stays unknown. In a font whose codes say its
/// upper half is Cyrillic ([`code_script`]), 0xC0–0xFF are А–я, and the eight codes of
/// 0x80–0xBF that TeX's Cyrillic encodings share are Ё, ё, №, ¤, §, „, « and ».
pub(super) fn code_named_glyph(name: &str, code: u32, script: CodeScript) -> Option<String> {
    // Older dvips name a bitmap glyph by its character ("0", "-", "C") or, for a character a
    // PostScript name cannot hold, by its code in hex ("#28" for "("): graphviz's manuals,
    // as Acrobat Distiller 3 made them, lost every digit and stop.
    if let Some(c) = char::from_u32(code).filter(char::is_ascii_graphic) {
        let hex = name.strip_prefix('#').filter(|h| h.len() == 2);
        if name.len() == 1 && name.starts_with(c)
            || hex.and_then(|h| u32::from_str_radix(h, 16).ok()) == Some(code)
        {
            return Some(c.to_string());
        }
    }
    if named_code(name)? != code {
        return None;
    }
    let n = code;
    if script == CodeScript::Cyrillic {
        if (0xc0..=0xff).contains(&n) {
            // А to я, in alphabetical order, as every 8-bit Cyrillic encoding of TeX places them.
            return char::from_u32(0x410 + n - 0xc0).map(String::from);
        }
        if let Some(text) = tex_cyrillic_shared(n) {
            return Some(text.into());
        }
    }
    match n {
        0x21..=0x7e | 0xc0..=0xff => Some(
            match n {
                0xd7 => "Œ",
                0xdf => "SS",
                0xf7 => "œ",
                0xff => "ß",
                _ => return char::from_u32(n).map(String::from),
            }
            .to_string(),
        ),
        _ => None,
    }
}

/// The codes of 0x80–0xBF that TeX's Cyrillic encodings T2A, T2B, T2C and X2 share (their
/// t2aenc.def … x2enc.def); the rest of that range is each encoding's own letters, not guessed.
fn tex_cyrillic_shared(code: u32) -> Option<&'static str> {
    Some(match code {
        0x9c => "Ё",
        0x9d => "№",
        0x9e => "¤",
        0x9f => "§",
        0xbc => "ё",
        0xbd => "„",
        0xbe => "«",
        0xbf => "»",
        _ => return None,
    })
}

/// Whether a glyph name is its own code, as [`code_named_glyph`] reads it ("a97" at 97).
pub(super) fn is_code_named(name: &str, code: u32) -> bool {
    named_code(name) == Some(code)
}

/// The code in a glyph name of one or two letters and the code's decimal digits ("a97").
fn named_code(name: &str) -> Option<u32> {
    let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let prefix = name.len() - digits.len();
    if !(1..=2).contains(&prefix) || digits.is_empty() || digits.len() > 3 {
        return None;
    }
    digits.parse().ok()
}

/// A glyph name of two base-36 digits (0-9, A-Z) as its number: "B4" is 11 × 36 + 4.
pub(super) fn base_36(name: &str) -> Option<u32> {
    let digit = |b: u8| match b {
        b'0'..=b'9' => Some(u32::from(b - b'0')),
        b'A'..=b'Z' => Some(u32::from(b - b'A') + 10),
        _ => None,
    };
    match name.as_bytes() {
        [a, b] => Some(digit(*a)? * 36 + digit(*b)?),
        _ => None,
    }
}

/// Whether a Type3 font names its glyphs by their codes in base 36 from a fixed start, as
/// Ghostscript 9.04 names the glyphs of dvips' bitmap fonts ("A0" for code 0: "B4" at 40,
/// "CR" at 99; Maxima's rkf45.pdf, read as pdftotext and MuPDF read it, 0.27 word F1 and 90%
/// of its glyphs reported lost): at least three such names, every one of them its code plus
/// the same number. Names that merely look so ("AE", "OE" at the codes of Æ and Œ) do not
/// keep one offset. Ghostscript's own offset, 360 ("A0" = 10 × 36), is taken from one name: a
/// font of a single glyph is common there (the dot leaders of a table of contents in their
/// own size, "46 /BA": 3,766 dots of Debian's silex.pdf were reported lost).
pub(super) fn codes_in_base_36<'a>(differences: impl IntoIterator<Item = (u32, &'a str)>) -> bool {
    let mut offset = None;
    let mut n = 0;
    for (code, name) in differences {
        let Some(value) = base_36(name) else {
            continue;
        };
        let here = i64::from(value) - i64::from(code);
        if *offset.get_or_insert(here) != here {
            return false;
        }
        n += 1;
    }
    n >= 3 || n >= 1 && offset == Some(GHOSTSCRIPT_BASE_36)
}

/// The number Ghostscript's names of bitmap glyphs start from ("A0", code 0).
const GHOSTSCRIPT_BASE_36: i64 = 360;

/// What the upper half of a Type3 font's code-named glyphs holds (see [`code_named_glyph`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CodeScript {
    /// T1's accented Latin letters: Latin-1's but for four.
    Latin,
    /// Cyrillic letters: TeX's T2A, T2B, T2C and X2 encodings (and Windows-1251) put А–я at
    /// 0xC0–0xFF, where T1 has its accented letters.
    Cyrillic,
}

/// Which script a Type3 font's code-named glyphs are in, from the codes its /Differences
/// name: pdfTeX embeds only the glyphs a document uses, so the codes are a sample of its text.
/// A Latin text uses more distinct ASCII letters than accented ones (French, the richest in
/// accents, a good 20 of T1's 0xC0–0xFF against most of a–z and A–Z); a Russian text uses most
/// of 0xC0–0xFF and few ASCII letters (its English words). So the upper half is Cyrillic
/// where the font names at least 8 codes at 0xC0–0xFF, more than it names ASCII letters, and
/// fewer than half as many at 0x80–0xBF (a whole glyph table names every code and stays
/// Latin). Found on Debian's packaging-tutorial.ru.pdf (LH bitmap fonts): "Ðóêîâîäñòâî" for
/// "Руководство" on every page, reported complete.
///
/// A Russian text with as many English words (that file's body fonts: 42–55 codes in the upper
/// half, 35–51 ASCII letters; its running footer's: 15 and 33) is told by which letters: е, н,
/// р, с and т, five of Russian's seven most frequent, sit at T1's å, í, ð, ñ and ò, of which
/// no one Latin language writes more than two (Spanish í and ñ, Catalan í and ò, Icelandic í
/// and ð, Danish å). Four of the five are enough: the footer, "Руководство по созданию
/// пакетов Debian", has no р.
pub(super) fn code_script<'a>(differences: impl IntoIterator<Item = (u32, &'a str)>) -> CodeScript {
    /// T1's å í ð ñ ò: T2A's е н р с т.
    const RUSSIAN_ONLY: [u32; 5] = [0xe5, 0xed, 0xf0, 0xf1, 0xf2];
    let (mut ascii, mut middle, mut upper, mut russian) = (0, 0, 0, 0);
    for (code, name) in differences {
        if named_code(name) != Some(code) {
            continue;
        }
        match code {
            0x41..=0x5a | 0x61..=0x7a => ascii += 1,
            0x80..=0xbf => middle += 1,
            0xc0..=0xff => upper += 1,
            _ => {}
        }
        russian += usize::from(RUSSIAN_ONLY.contains(&code));
    }
    let letters_say_russian = upper > ascii || russian >= RUSSIAN_ONLY.len() - 1;
    if upper >= 8 && letters_say_russian && 2 * middle < upper {
        CodeScript::Cyrillic
    } else {
        CodeScript::Latin
    }
}

/// A Type3 glyph named by its code as a bare number ("/65" at code 65: FranklinGothic-Book as
/// an Italian insurer's documents embed it, test_3186.pdf of PyMuPDF's tests, rejected as
/// unmapped until stop 33 while pdftotext and MuPDF read it): the code's WinAnsi character,
/// tab and line feed a space. Only for a font whose every bare-number name is its own code
/// and sits on no other control code (`codes_named_by_number`): fonts that number their glyphs
/// in the order they were drawn use the control codes too (test_3362.pdf, /0 to /168), and their
/// numbers are no characters.
pub(super) fn number_named_glyph(name: &str, code: u32) -> Option<String> {
    if name.parse::<u32>().ok()? != code {
        return None;
    }
    match code {
        9 | 10 | 13 | 32 => Some(" ".into()),
        c => pdf_encoding::WINANSI
            .get(u8::try_from(c).ok()?)
            .map(|c| if c == '\u{AD}' { '-' } else { c })
            .map(String::from),
    }
}

/// Whether a Type3 font's /Differences name glyphs by their codes as bare numbers, as a
/// character encoding would: see [`number_named_glyph`].
pub(super) fn codes_named_by_number<'a>(
    differences: impl IntoIterator<Item = (u32, &'a str)>,
) -> bool {
    let mut any = false;
    for (code, name) in differences {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        any = true;
        if name.parse::<u32>().ok() != Some(code) || (code < 32 && ![9, 10, 13].contains(&code)) {
            return false;
        }
    }
    any
}

/// The fewest glyphs a Type3 font numbered in order of use must have to be told so: fewer,
/// and a font of true codes could name 0 to n − 1 by chance.
pub const IN_ORDER_OF_USE_MIN: usize = 32;

/// How many codes a Type3 font's /Differences names from 0 up by their own numbers ("a0",
/// "a1", …: `code_named`, the codes so named) when it names nothing else but .notdef and at
/// least [`IN_ORDER_OF_USE_MIN`]; else 0. A font of true TeX codes names only the glyphs a
/// document uses: 0 to 31 are Greek capitals, ligatures and accents, which text does not use
/// every one of; a glyph table does, and the page that shows it tells it apart
/// (`page::glyph_tables`).
pub(super) fn numbered_from_zero(
    code_named: &[u32],
    encoding: Option<&pdf::encoding::Encoding>,
) -> usize {
    let Some(encoding) = encoding else {
        return 0;
    };
    let others = encoding
        .differences
        .iter()
        .filter(|(code, name)| name.as_str() != ".notdef" && !is_code_named(name.as_str(), **code))
        .count();
    let mut codes = code_named.to_vec();
    codes.sort_unstable();
    codes.dedup();
    let dense = codes.iter().enumerate().all(|(i, &c)| c as usize == i);
    if others == 0 && dense && codes.len() >= IN_ORDER_OF_USE_MIN {
        codes.len()
    } else {
        0
    }
}
