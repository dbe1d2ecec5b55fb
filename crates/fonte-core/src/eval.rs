//! Retrieval metrics: whether a chunk holds a gold passage, recall@k, MRR and recall under an
//! evidence budget in characters (what actually reaches the LLM).

use std::collections::HashSet;

use crate::text::words;

/// Word n-gram length used to recognise a gold passage inside a chunk.
const SHINGLE: usize = 5;

/// Recognises chunks that overlap a gold passage: they share word 5-grams with it (folded,
/// hyphenation joined), so the same text extracted from a PDF or taken from HTML matches.
pub struct GoldMatcher {
    shingles: HashSet<Vec<String>>,
}

impl GoldMatcher {
    /// Prepares the gold passage.
    pub fn new(gold: &str) -> Self {
        let w = words(gold);
        let shingles = w
            .windows(SHINGLE.min(w.len().max(1)))
            .map(<[String]>::to_vec)
            .collect();
        Self { shingles }
    }

    /// Whether `chunk` overlaps the gold passage: it shares at least three of its 5-grams (or
    /// all of them, for a gold passage shorter than seven words).
    pub fn overlaps(&self, chunk: &str) -> bool {
        let need = self.shingles.len().min(3);
        if need == 0 {
            return false;
        }
        let w = words(chunk);
        let mut shared = HashSet::new();
        for s in w.windows(SHINGLE.min(w.len().max(1))) {
            if self.shingles.contains(s) {
                shared.insert(s);
                if shared.len() >= need {
                    return true;
                }
            }
        }
        false
    }
}

/// Outcome of one question: hit flags of the ranked chunks, and whether the evidence kept
/// under the budget holds a hit.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionOutcome {
    /// `ranked[i]`: the chunk at rank i + 1 overlaps the gold passage.
    pub ranked: Vec<bool>,
    /// The chunks kept under the character budget include a hit.
    pub budget_hit: bool,
}

/// Aggregated metrics over questions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetrievalMetrics {
    /// Number of questions.
    pub questions: usize,
    /// Fraction with a hit in the top 5.
    pub recall_at_5: f64,
    /// Fraction with a hit in the top 10.
    pub recall_at_10: f64,
    /// Mean reciprocal rank of the first hit (0 when none is ranked).
    pub mrr: f64,
    /// Fraction whose budgeted evidence holds a hit.
    pub recall_budget: f64,
}

/// Aggregates outcomes.
pub fn metrics(outcomes: &[QuestionOutcome]) -> RetrievalMetrics {
    let n = outcomes.len().max(1) as f64;
    let hit_in = |o: &QuestionOutcome, k: usize| o.ranked.iter().take(k).any(|h| *h);
    RetrievalMetrics {
        questions: outcomes.len(),
        recall_at_5: outcomes.iter().filter(|o| hit_in(o, 5)).count() as f64 / n,
        recall_at_10: outcomes.iter().filter(|o| hit_in(o, 10)).count() as f64 / n,
        mrr: outcomes
            .iter()
            .map(|o| {
                o.ranked
                    .iter()
                    .position(|h| *h)
                    .map_or(0.0, |p| 1.0 / (p as f64 + 1.0))
            })
            .sum::<f64>()
            / n,
        recall_budget: outcomes.iter().filter(|o| o.budget_hit).count() as f64 / n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_matches_across_hyphenation_case_and_accents() {
        let gold = "Se você gosta do init System V, mas não gosta dos links, pode instalar o pacote file-rc.";
        let m = GoldMatcher::new(gold);
        assert!(
            m.overlaps("Intro.\nSe voce gosta do init Sys-\ntem V, mas nao gosta dos links, pode")
        );
        assert!(!m.overlaps("Se você gosta do init e de outra coisa qualquer."));
    }

    #[test]
    fn metrics_by_hand() {
        let o = |ranked: &[bool], budget_hit| QuestionOutcome {
            ranked: ranked.to_vec(),
            budget_hit,
        };
        let m = metrics(&[
            o(&[true], true),
            o(&[false, false, false, false, false, true], false),
            o(&[false; 20], false),
            o(&[false, true], true),
        ]);
        assert_eq!(m.recall_at_5, 0.5);
        assert_eq!(m.recall_at_10, 0.75);
        assert!((m.mrr - (1.0 + 1.0 / 6.0 + 0.5) / 4.0).abs() < 1e-12);
        assert_eq!(m.recall_budget, 0.5);
    }
}
