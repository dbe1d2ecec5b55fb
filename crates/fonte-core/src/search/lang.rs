//! The two languages Fonte tells apart (those the interface and the bilingual model serve), and
//! how a question or a passage says which it is in: by its function words and by the letters
//! only Portuguese uses here. A statistical detector is unreliable on a question of a few words,
//! and a passage needs only to be put with the other passages of its language (for fusing the
//! dense ranking per language, in retrieval).

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::search::lexical::{STOP_EN, STOP_PT};
use crate::text::{fold, words};

/// The language a question is asked (and answered) in, or a passage is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// English.
    En,
    /// Portuguese.
    Pt,
}

/// Folded function words of one language that the other's list does not hold ("a", "as", "me"
/// are words of both).
fn only(own: &str, other: &str) -> HashSet<String> {
    let other: HashSet<String> = other.split_whitespace().map(fold).collect();
    own.split_whitespace()
        .map(fold)
        .filter(|w| !other.contains(w))
        .collect()
}

fn only_en() -> &'static HashSet<String> {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| only(STOP_EN, STOP_PT))
}

fn only_pt() -> &'static HashSet<String> {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| only(STOP_PT, STOP_EN))
}

impl Lang {
    /// The language of `text`, or `None` when nothing tells them apart (a formula, a command
    /// line, an empty string): Portuguese when its function words and the letters ã õ ç â ê ô
    /// and acute vowels say so more than English function words do.
    pub fn detect(text: &str) -> Option<Lang> {
        let folded = words(text);
        let letters = text
            .chars()
            .filter(|c| "ãõçâêôÃÕÇÂÊÔáéíóúÁÉÍÓÚ".contains(*c))
            .count();
        let pt = folded.iter().filter(|w| only_pt().contains(*w)).count() + letters;
        let en = folded.iter().filter(|w| only_en().contains(*w)).count();
        match pt.cmp(&en) {
            std::cmp::Ordering::Greater => Some(Lang::Pt),
            std::cmp::Ordering::Less => Some(Lang::En),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The language of `question`; `fallback` (the interface language) when nothing tells
    /// them apart.
    pub fn of(question: &str, fallback: Lang) -> Lang {
        Self::detect(question).unwrap_or(fallback)
    }

    /// The sentence the model must reply with, exactly, when the sources do not hold the
    /// answer.
    pub fn abstention(self) -> &'static str {
        match self {
            Lang::En => "The documents do not contain the answer.",
            Lang::Pt => "Os documentos não contêm a resposta.",
        }
    }
}

/// The language of each chunk of one document: its own when its words say, else the
/// document's (the language most of its chunks are in), else `None` (a document of formulas
/// or code only). A passage of code in an English manual goes with the English passages.
pub fn passage_languages<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<Option<Lang>> {
    let own: Vec<Option<Lang>> = texts.into_iter().map(Lang::detect).collect();
    let count = |l| own.iter().filter(|x| **x == Some(l)).count();
    let (en, pt) = (count(Lang::En), count(Lang::Pt));
    let document = match en.cmp(&pt) {
        std::cmp::Ordering::Greater => Some(Lang::En),
        std::cmp::Ordering::Less => Some(Lang::Pt),
        std::cmp::Ordering::Equal => None,
    };
    own.into_iter().map(|l| l.or(document)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passages_take_their_own_language_or_their_documents() {
        let langs = passage_languages([
            "O pacote é instalado com o dpkg, que não resolve dependências.",
            "apt-get install file-rc",
            "This line, in English, is the odd one out of the document.",
            "Se você gosta do init System V, pode instalar o pacote file-rc.",
        ]);
        assert_eq!(
            langs,
            [
                Some(Lang::Pt),
                Some(Lang::Pt),
                Some(Lang::En),
                Some(Lang::Pt)
            ]
        );
        assert_eq!(passage_languages(["x = 1", "y = 2"]), [None, None]);
        assert_eq!(Lang::detect(""), None);
    }
}
