//! Text normalisation shared by the reader (page furniture), lexical search, chunking and
//! evaluation; fonte-core re-exports it as `fonte_core::text`.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Lower-cases, applies compatibility decomposition (so the "ﬁ" ligature is "fi") and drops
/// combining marks, so "Ação" and "acao" compare equal.
pub fn fold(text: &str) -> String {
    text.nfkd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Joins words hyphenated at a line end ("infor-\nmation" -> "information"): a hyphen after a
/// letter, a line break, then a lower-case letter.
pub fn join_hyphenated(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("-\n") {
        let (before, after) = (&rest[..i], &rest[i + 2..]);
        let joined = before.ends_with(char::is_alphabetic)
            && after
                .trim_start_matches(' ')
                .starts_with(char::is_lowercase);
        out.push_str(before);
        if joined {
            rest = after.trim_start_matches(' ');
        } else {
            out.push_str("-\n");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Splits `text` into folded words: maximal runs of alphanumeric characters, with words
/// hyphenated at line ends joined.
pub fn words(text: &str) -> Vec<String> {
    fold(&join_hyphenated(text))
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Slices `text` by char offsets (pages and passages are addressed in chars, not bytes).
pub fn slice_chars(text: &str, start: usize, end: usize) -> &str {
    let byte = |c: usize| text.char_indices().nth(c).map_or(text.len(), |(b, _)| b);
    &text[byte(start)..byte(end)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_accents_case_and_ligatures() {
        assert_eq!(fold("Ação ÉPICA"), "acao epica");
        assert_eq!(fold("eﬃcient ﬁle"), "efficient file");
        assert_eq!(
            words("Cláusula 3.1: a rescisão—já!"),
            ["clausula", "3", "1", "a", "rescisao", "ja"]
        );
    }
}
