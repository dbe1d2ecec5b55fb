//! Passages close to every question ("hubs"), and the correction cross-lingual retrieval uses
//! for them: CSLS (cross-domain similarity local scaling, Conneau et al., 2018), which ranks a
//! passage by its cosine to the question less its mean cosine to its nearest neighbours. In a
//! library of several manuals such passages (a "see also" line, a paragraph on labels) take
//! the places of the passage that answers (docs/QUALITY.md §4, "hubness").
//!
//! Measured as a candidate ranking ([`super::Languages::Hubness`], `fonte eval --languages
//! hubness`), not shipped: a passage's value depends on the whole library, and is computed
//! here from scratch (quadratic in its size) instead of kept up to date with it.

use super::languages::{dot, without_axis};
use crate::embed::l2_normalize;

/// How much of a passage's hubness comes off its cosine ([`super::Languages::Hubness`]):
/// 0.15, the largest measured (of 0.15, ¼, ½, 1: docs/QUALITY.md §4) that costs no FAQ pair
/// more than one question; larger over-corrects.
pub const HUBNESS_WEIGHT: f32 = 0.15;

/// How many nearest passages a passage's hubness averages (10 and 50 measured alike).
pub const HUBNESS_NEIGHBOURS: usize = 50;

/// Each passage's hubness: its mean cosine, with the language axis `direction` projected out
/// (empty: none), to its `k` nearest other passages. A passage without a vector (still to
/// come: empty) has 0 and is nobody's neighbour; one with fewer than `k` neighbours averages
/// those it has.
pub fn hubness(vectors: &[Vec<f32>], direction: &[f32], k: usize) -> Vec<f32> {
    let unit: Vec<Option<Vec<f32>>> = vectors
        .iter()
        .map(|v| {
            if v.is_empty() {
                return None;
            }
            let mut p = if direction.is_empty() {
                v.clone()
            } else {
                without_axis(v, direction)
            };
            l2_normalize(&mut p);
            Some(p)
        })
        .collect();
    let mut sims = Vec::with_capacity(unit.len());
    unit.iter()
        .enumerate()
        .map(|(i, u)| {
            let Some(u) = u else { return 0.0 };
            sims.clear();
            sims.extend(
                unit.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .filter_map(|(_, w)| w.as_ref().map(|w| dot(u, w))),
            );
            let k = k.min(sims.len());
            if k == 0 {
                return 0.0;
            }
            sims.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
            sims[..k].iter().sum::<f32>() / k as f32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        let mut v = v.to_vec();
        l2_normalize(&mut v);
        v
    }

    #[test]
    fn is_the_mean_cosine_to_the_nearest_others() {
        let vectors = vec![
            unit(&[1.0, 0.0, 0.0]),
            unit(&[1.0, 1.0, 0.0]),
            unit(&[0.0, 1.0, 0.0]),
            unit(&[0.0, 0.0, 1.0]),
        ];
        let h = hubness(&vectors, &[], 2);
        let c45 = std::f32::consts::FRAC_1_SQRT_2;
        // Passage 0: nearest are 1 (cos 0.707) and then 2 or 3 (cos 0).
        assert!((h[0] - c45 / 2.0).abs() < 1e-6, "{h:?}");
        // Passage 1 has two neighbours at 0.707.
        assert!((h[1] - c45).abs() < 1e-6, "{h:?}");
        // Passage 3 is orthogonal to all.
        assert!(h[3].abs() < 1e-6, "{h:?}");
    }

    #[test]
    fn the_language_axis_is_taken_out_first_and_missing_vectors_count_for_nothing() {
        // Along axis z only the two passages agree; without it they are orthogonal.
        let axis = vec![0.0, 0.0, 1.0];
        let vectors = vec![unit(&[1.0, 0.0, 3.0]), unit(&[0.0, 1.0, 3.0]), Vec::new()];
        let with_axis = hubness(&vectors, &[], 1);
        let without = hubness(&vectors, &axis, 1);
        assert!(with_axis[0] > 0.8, "{with_axis:?}");
        assert!(
            without[0].abs() < 1e-6 && without[1].abs() < 1e-6,
            "{without:?}"
        );
        assert_eq!(without[2], 0.0);
    }
}
