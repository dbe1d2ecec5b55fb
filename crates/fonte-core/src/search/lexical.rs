//! BM25 over chunks, with Unicode-aware words, accent folding and English + Portuguese stop
//! words (a Portuguese question must match "ação" whether or not the user typed the accents).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::text::{fold, words};

/// Common English words that carry no topic. Folded before use.
pub(crate) const STOP_EN: &str =
    "a about above after again against all am an and any are as at be because been \
before being below between both but by can could did do does doing down during each few for from \
further had has have having he her here hers herself him himself his how i if in into is it its \
itself just me more most my myself no nor not now of off on once only or other our ours ourselves \
out over own same she should so some such than that the their theirs them themselves then there \
these they this those through to too under until up very was we were what when where which while \
who whom why will with would you your yours yourself yourselves";

/// Common Portuguese words that carry no topic. Folded before use.
pub(crate) const STOP_PT: &str = "à às ao aos aquela aquelas aquele aqueles aquilo as até com como da das de dela delas dele deles \
depois do dos e é ela elas ele eles em entre era eram essa essas esse esses esta estas este estes \
eu foi foram há isso isto já lhe lhes mais mas me mesmo meu meus minha minhas muito na nas não \
nem no nos nós o os ou para pela pelas pelo pelos por qual quando que quem se sem ser seu seus \
só sua suas também te tem têm teu tu tua um uma umas uns você vocês vos";

fn stop_words() -> &'static HashSet<String> {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| {
        STOP_EN
            .split_whitespace()
            .chain(STOP_PT.split_whitespace())
            .map(fold)
            .collect()
    })
}

/// The terms BM25 indexes for `text`: folded words minus stop words.
pub fn terms(text: &str) -> Vec<String> {
    let stop = stop_words();
    words(text)
        .into_iter()
        .filter(|w| !stop.contains(w))
        .collect()
}

/// Splits `text` into runs for display, marking the words that match a query term (folded, so
/// "acao" marks "ação"; stop words never marked). Concatenating the runs gives `text` back.
pub fn highlight(text: &str, query: &str) -> Vec<(String, bool)> {
    let wanted: HashSet<String> = terms(query).into_iter().collect();
    let mut runs: Vec<(String, bool)> = Vec::new();
    let mut push = |piece: &str, hit: bool| match runs.last_mut() {
        Some((last, h)) if *h == hit => last.push_str(piece),
        _ => runs.push((piece.to_string(), hit)),
    };
    let mut word_start: Option<usize> = None;
    let flush = |from: usize, to: usize, push: &mut dyn FnMut(&str, bool)| {
        let w = &text[from..to];
        push(w, !wanted.is_empty() && wanted.contains(&fold(w)));
    };
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            word_start.get_or_insert(i);
        } else {
            if let Some(start) = word_start.take() {
                flush(start, i, &mut push);
            }
            push(&text[i..i + c.len_utf8()], false);
        }
    }
    if let Some(start) = word_start {
        flush(start, text.len(), &mut push);
    }
    runs
}

/// BM25 parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bm25Params {
    /// Term-frequency saturation.
    pub k1: f32,
    /// Length normalisation.
    pub b: f32,
}

impl Default for Bm25Params {
    fn default() -> Self {
        Self { k1: 1.2, b: 0.75 }
    }
}

/// An inverted index over documents numbered `0..n` (Fonte's chunk numbers).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bm25 {
    params: Bm25Params,
    lengths: Vec<u32>,
    total_length: u64,
    postings: HashMap<String, Vec<(u32, u32)>>,
}

impl Bm25 {
    /// Indexes `texts`; the i-th text is document `i`.
    pub fn build<'a>(texts: impl IntoIterator<Item = &'a str>, params: Bm25Params) -> Self {
        let mut index = Self {
            params,
            lengths: Vec::new(),
            total_length: 0,
            postings: HashMap::new(),
        };
        for text in texts {
            index.push(text);
        }
        index
    }

    /// Adds one more document (numbered `len()`).
    pub fn push(&mut self, text: &str) {
        let id = self.lengths.len() as u32;
        let terms = terms(text);
        self.lengths.push(terms.len() as u32);
        self.total_length += terms.len() as u64;
        let mut tf: HashMap<String, u32> = HashMap::new();
        for t in terms {
            *tf.entry(t).or_default() += 1;
        }
        for (t, n) in tf {
            self.postings.entry(t).or_default().push((id, n));
        }
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Whether no document is indexed.
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Inverse document frequency (the non-negative Lucene form).
    fn idf(&self, df: usize) -> f32 {
        let n = self.len() as f32;
        let df = df as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// The `k` best documents for `query` among those `allow` accepts, best first. Documents
    /// sharing no term with the query are never returned.
    pub fn search(&self, query: &str, k: usize, allow: &dyn Fn(u32) -> bool) -> Vec<(u32, f32)> {
        if self.is_empty() {
            return Vec::new();
        }
        let avg = self.total_length as f32 / self.len() as f32;
        let Bm25Params { k1, b } = self.params;
        // Scores in a flat array (no hashing in the inner loop), and only the touched chunks
        // are ranked; a selection finds the top k without sorting them all.
        let mut scores = vec![0f32; self.len()];
        let mut touched: Vec<u32> = Vec::new();
        let mut seen = HashSet::new();
        for term in terms(query) {
            // A repeated query word counts once.
            if !seen.insert(term.clone()) {
                continue;
            }
            let Some(list) = self.postings.get(&term) else {
                continue;
            };
            let idf = self.idf(list.len());
            for &(doc, tf) in list {
                if !allow(doc) {
                    continue;
                }
                let tf = tf as f32;
                let len = self.lengths[doc as usize] as f32;
                let s = idf * tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * len / avg.max(1e-6)));
                let slot = &mut scores[doc as usize];
                if *slot == 0.0 {
                    touched.push(doc);
                }
                *slot += s;
            }
        }
        let mut ranked: Vec<(u32, f32)> = touched
            .into_iter()
            .map(|d| (d, scores[d as usize]))
            .collect();
        let order = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if ranked.len() > k && k > 0 {
            ranked.select_nth_unstable_by(k - 1, order);
        }
        ranked.truncate(k);
        ranked.sort_by(order);
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlight_marks_folded_query_words_and_keeps_the_text() {
        let text = "A ação do Art. 5 — acao, não; the ACTION";
        let runs = highlight(text, "acao action do");
        let joined: String = runs.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(joined, text);
        let marked: Vec<&str> = runs.iter().filter(|r| r.1).map(|r| r.0.as_str()).collect();
        // "do" is a Portuguese stop word: not marked.
        assert_eq!(marked, ["ação", "acao", "ACTION"]);
        assert!(highlight("plain", "").iter().all(|r| !r.1));
    }

    fn all(_: u32) -> bool {
        true
    }

    #[test]
    fn stop_words_and_accents() {
        assert_eq!(terms("What is the Ação of a cat?"), ["acao", "cat"]);
        assert_eq!(terms("Não é a ação do gato"), ["acao", "gato"]);
    }

    #[test]
    fn scores_match_a_hand_computed_example() {
        // Terms after stop words: d0 = [cat, sat, mat] (3), d1 = [dog, sat] (2), d2 = [cat, cat] (2)
        let idx = Bm25::build(
            ["the cat sat on the mat", "a dog sat", "cat cat"],
            Bm25Params::default(),
        );
        let r = idx.search("cat", 10, &all);
        // N = 3, df(cat) = 2: idf = ln(1 + 1.5 / 2.5) = ln 1.6; avgdl = 7/3.
        let idf = 1.6f32.ln();
        let s = |tf: f32, len: f32| idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len / (7.0 / 3.0)));
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].0, 2);
        assert!((r[0].1 - s(2.0, 2.0)).abs() < 1e-5, "{r:?}");
        assert_eq!(r[1].0, 0);
        assert!((r[1].1 - s(1.0, 3.0)).abs() < 1e-5, "{r:?}");
    }

    #[test]
    fn scope_filters_and_unmatched_documents_are_not_returned() {
        let idx = Bm25::build(
            [
                "rescisão do contrato",
                "prazo de entrega",
                "rescisao antecipada",
            ],
            Bm25Params::default(),
        );
        let r = idx.search("Rescisão", 10, &all);
        assert_eq!(r.iter().map(|x| x.0).collect::<Vec<_>>().len(), 2);
        let only_last = idx.search("rescisao", 10, &|d| d == 2);
        assert_eq!(only_last.iter().map(|x| x.0).collect::<Vec<_>>(), [2]);
        assert!(idx.search("inexistente", 10, &all).is_empty());
    }

    #[test]
    fn round_trips_through_postcard() {
        let idx = Bm25::build(["alpha beta", "beta gamma"], Bm25Params::default());
        let bytes = postcard::to_allocvec(&idx).unwrap();
        let back: Bm25 = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back, idx);
    }
}
