//! Text normalisation shared by lexical search, chunking and evaluation.

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

/// Splits `text` into folded words: maximal runs of alphanumeric characters.
pub fn words(text: &str) -> Vec<String> {
    fold(text)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
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
