//! Question sets and the FAQ's heading stripping. Two formats, one JSON object per line:
//! the Debian FAQ set (`q_en`, `q_pt`, `gold_en`, `gold_pt`: the same FAQ in both languages)
//! and the mixed-library set (`doc`, `doc_lang`, `gold`, `q_en`, `q_pt`: one passage of one
//! document, asked in both languages).

use std::collections::HashSet;

use fonte_core::search::corpus::Corpus;
use fonte_core::text::words;
use serde::Deserialize;

use crate::index;

/// One question of a set, in both languages.
#[derive(Deserialize)]
pub struct Qa {
    /// Its name in per-question output.
    #[serde(default)]
    pub id: String,
    /// The question in English.
    pub q_en: String,
    /// The question in Portuguese.
    pub q_pt: String,
    // FAQ format; absent from question sets used only for abstention.
    #[serde(default)]
    gold_en: String,
    #[serde(default)]
    gold_pt: String,
    /// Mixed format: the file name of the one document that answers, its language, and the
    /// answering passage as that document has it.
    #[serde(default)]
    pub doc: Option<String>,
    #[serde(default)]
    pub doc_lang: String,
    #[serde(default)]
    pub gold: String,
}

/// A JSON-lines question set.
pub fn read_qa<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> Result<Vec<T>, String> {
    std::fs::read_to_string(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{}: {e}", path.display())))
        .collect()
}

impl Qa {
    /// The question in `lang` ("en" or "pt").
    pub fn question(&self, lang: &str) -> &str {
        if lang == "en" {
            &self.q_en
        } else {
            &self.q_pt
        }
    }
    /// The gold passage in `lang` (FAQ format).
    pub fn gold(&self, lang: &str) -> &str {
        if lang == "en" {
            &self.gold_en
        } else {
            &self.gold_pt
        }
    }
}

/// A line's words without a leading section number ("1.1 What is this FAQ?" -> what is this faq).
fn heading_words(line: &str) -> Vec<String> {
    let w = words(line);
    let skip = w
        .iter()
        .take_while(|x| x.chars().all(|c| c.is_ascii_digit()))
        .count();
    w[skip..].to_vec()
}

/// Removes lines (or runs of up to three lines) that spell one of `questions`.
fn strip_heading_lines(text: &str, questions: &HashSet<Vec<String>>) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut drop = vec![false; lines.len()];
    for span in 1..=3 {
        for start in 0..lines.len().saturating_sub(span - 1) {
            let joined = lines[start..start + span].join(" ");
            if questions.contains(&heading_words(&joined)) {
                drop[start..start + span].iter_mut().for_each(|d| *d = true);
            }
        }
    }
    drop.iter().any(|d| *d).then(|| {
        lines
            .iter()
            .zip(&drop)
            .filter(|(_, d)| !**d)
            .map(|(l, _)| *l)
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// The corpus with each question's own heading lines stripped and those chunks re-embedded;
/// how many chunks changed.
pub fn stripped_corpus(
    corpus: &Corpus,
    qa: &[Qa],
    embedder: &mut fonte_core::embed::Embedder<fonte_core::embed::native::OrtEncoder>,
) -> Result<(Corpus, usize), String> {
    let questions: HashSet<Vec<String>> = qa
        .iter()
        .flat_map(|q| [words(&q.q_en), words(&q.q_pt)])
        .collect();
    let mut chunks = corpus.chunks().to_vec();
    let mut vectors = corpus.vectors().to_vec();
    let mut changed = Vec::new();
    for (i, rec) in chunks.iter_mut().enumerate() {
        if let Some(t) = strip_heading_lines(&rec.chunk.text, &questions) {
            rec.chunk.text = t;
            changed.push(i);
        }
    }
    let texts: Vec<&str> = changed
        .iter()
        .map(|&i| chunks[i].chunk.text.as_str())
        .collect();
    let new_vectors = index::embed_all(embedder, &texts)?;
    for (&i, v) in changed.iter().zip(new_vectors) {
        vectors[i] = v;
    }
    let n = changed.len();
    Corpus::build(
        corpus.info().clone(),
        corpus.documents().to_vec(),
        chunks,
        vectors,
    )
    .map(|c| (c, n))
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_a_numbered_heading_even_when_wrapped() {
        let q: HashSet<Vec<String>> = [words("What is the difference between Debian and other distributions? Why should I choose Debian?")].into();
        let text = "1.5 What is the difference between Debian and other distributions? Why\nshould I choose Debian?\nBecause it is free.";
        assert_eq!(
            strip_heading_lines(text, &q).as_deref(),
            Some("Because it is free.")
        );
        assert_eq!(strip_heading_lines("Nothing to strip here.", &q), None);
    }
}
