//! Abstention before the LLM: when the best passage a question finds is no closer to it than
//! what questions about unrelated things find in the same library, Fonte says the documents do
//! not hold the answer and sends nothing.
//!
//! The threshold is calibrated on the library, not fixed: cosine similarities of one
//! embedding model sit in a narrow band that shifts with the model, the language and the
//! library (e5's cosines between unrelated texts are ~0.7-0.8). So [`PROBES`], everyday
//! questions a document library is unlikely to answer, are asked of the library, and their
//! best scores form its *null* distribution: what "nothing relevant here" looks like in this
//! library with this model. A question is abstained on when its best score is within that
//! distribution (below its [`QUANTILE`]).
//!
//! This is a cheap first filter, meant never to refuse a question the library answers: what
//! passes it still meets the prompt's rule, and the model abstains on what the sources do not
//! hold. docs/QUALITY.md ("Answers") measures it on an answerable and an out-of-corpus question
//! set for two libraries, against two scores that looked sharper on the first library (the
//! best minus the median, and the best minus the best 1% of passages) and refused a third to a
//! half of the answerable questions on the second.

use serde::{Deserialize, Serialize};

/// Everyday questions in English and Portuguese that document libraries (contracts, manuals,
/// regulations, papers) are unlikely to answer. A probe a library does answer only moves the
/// threshold by one place among many (the threshold is a quantile, not the maximum).
pub const PROBES: &[&str] = &[
    "What is a good recipe for chocolate cake?",
    "Who won the football world cup in 1970?",
    "How tall is Mount Everest?",
    "What should I feed a pet rabbit?",
    "How do I remove a red wine stain from a carpet?",
    "What time does the sun set in winter in Norway?",
    "Which planet has the most moons?",
    "How long should I boil an egg?",
    "What is the plot of Romeo and Juliet?",
    "How do I tie a bow tie?",
    "What are the rules of chess castling?",
    "Which vitamins are in oranges?",
    "How do bees make honey?",
    "What is the best season to plant tomatoes?",
    "Who painted the Mona Lisa?",
    "How many players are on a volleyball team?",
    "Qual é uma boa receita de bolo de cenoura?",
    "Quem descobriu o Brasil?",
    "Qual é a capital da Austrália?",
    "Como se faz um bom café coado?",
    "Quantos ossos tem o corpo humano?",
    "Qual é o animal mais rápido do mundo?",
    "Como cuidar de uma orquídea em casa?",
    "Quando começa o carnaval no Rio de Janeiro?",
    "Qual a distância da Terra à Lua?",
    "Como se joga capoeira?",
    "Que frutas são típicas da Amazônia?",
    "Como treinar um cachorro para sentar?",
    "Quem escreveu Dom Casmurro?",
    "Qual é a temperatura ideal para assar pão?",
    "Por que o céu é azul?",
    "Como economizar água no banho?",
];

/// The share of probes scoring below the threshold. Not fitted to a corpus: a question must
/// stand out from nine in ten of the unrelated questions' best matches in its own library.
pub const QUANTILE: f32 = 0.9;

/// How a question (or probe) scores against a library.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Its best cosine similarity to a passage: the score the rule uses.
    pub top: f32,
    /// The cosine of the passage at its 99th percentile (the best 1%; the second best in a
    /// library of under 200 passages). Measured against, not used.
    pub crowd: f32,
    /// Its median cosine over the passages. Measured against, not used.
    pub median: f32,
}

/// Scores `query` (a unit vector) against unit `vectors`; `None` for a library of fewer than
/// two passages (nothing to stand out from: the LLM alone decides).
pub fn evidence(query: &[f32], vectors: &[Vec<f32>]) -> Option<Evidence> {
    if vectors.len() < 2 {
        return None;
    }
    // A chunk still waiting for its vector (an empty one) has no score yet.
    let mut scores: Vec<f32> = vectors
        .iter()
        .filter(|v| !v.is_empty())
        .map(|v| v.iter().zip(query).map(|(a, b)| a * b).sum())
        .collect();
    if scores.len() < 2 {
        return None;
    }
    scores.sort_unstable_by(|a, b| b.total_cmp(a));
    let n = scores.len();
    let crowd = scores[(n / 100).clamp(1, n - 1)];
    Some(Evidence {
        top: scores[0],
        crowd,
        median: scores[n / 2],
    })
}

/// A library's threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Threshold {
    /// Best scores below this are abstained on.
    pub top: f32,
    /// Probes it was calibrated with.
    pub probes: usize,
}

impl Threshold {
    /// The threshold from the probes' evidence in a library: the [`QUANTILE`] of their best
    /// scores (linear between ranks). `None` without probes.
    pub fn calibrate(probes: &[Evidence]) -> Option<Self> {
        if probes.is_empty() {
            return None;
        }
        let mut m: Vec<f32> = probes.iter().map(|e| e.top).collect();
        m.sort_by(f32::total_cmp);
        let at = QUANTILE * (m.len() - 1) as f32;
        let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
        let top = m[lo] + (m[hi] - m[lo]) * (at - lo as f32);
        Some(Self {
            top,
            probes: m.len(),
        })
    }

    /// Whether a question with `evidence` is abstained on.
    pub fn abstains(&self, evidence: &Evidence) -> bool {
        evidence.top < self.top
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.iter().map(|x| x / n).collect()
    }

    #[test]
    fn evidence_is_the_best_against_the_best_crowd() {
        let vectors = vec![unit(&[1.0, 0.0]), unit(&[0.0, 1.0]), unit(&[1.0, 1.0])];
        let e = evidence(&unit(&[1.0, 0.0]), &vectors).unwrap();
        assert!((e.top - 1.0).abs() < 1e-6);
        assert!(
            (e.crowd - 0.70710677).abs() < 1e-6,
            "the second best of three"
        );
        assert!(evidence(&[1.0], &[vec![1.0]]).is_none());
        // 1,000 passages: the crowd is the 11th best.
        let many: Vec<Vec<f32>> = (0..1000).map(|i| unit(&[1.0, i as f32 / 100.0])).collect();
        let e = evidence(&unit(&[1.0, 0.0]), &many).unwrap();
        assert!((e.crowd - unit(&[1.0, 0.1])[0]).abs() < 1e-6, "{e:?}");
    }

    #[test]
    fn the_threshold_is_the_probes_quantile_and_one_answered_probe_barely_moves_it() {
        let probes: Vec<Evidence> = (0..11)
            .map(|i| Evidence {
                top: 0.5 + i as f32 * 0.01,
                crowd: 0.45,
                median: 0.3,
            })
            .collect();
        let t = Threshold::calibrate(&probes).unwrap();
        assert!((t.top - 0.59).abs() < 1e-5, "{t:?}");
        // One probe the library happens to answer well.
        let mut answered = probes.clone();
        answered[0].top = 0.99;
        let t2 = Threshold::calibrate(&answered).unwrap();
        assert!(t2.top - t.top < 0.011, "{t2:?}");
        assert!(t.abstains(&Evidence {
            top: 0.55,
            crowd: 0.4,
            median: 0.3
        }));
        assert!(!t.abstains(&Evidence {
            top: 0.7,
            crowd: 0.4,
            median: 0.3
        }));
        assert!(Threshold::calibrate(&[]).is_none());
    }

    #[test]
    fn probes_are_in_both_languages() {
        use crate::answer::prompt::Lang;
        let pt = PROBES
            .iter()
            .filter(|p| Lang::of(p, Lang::En) == Lang::Pt)
            .count();
        assert!(
            pt >= 12 && PROBES.len() - pt >= 12,
            "{pt} of {}",
            PROBES.len()
        );
    }
}
