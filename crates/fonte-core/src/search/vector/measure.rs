//! Helpers for recall measurements and benchmarks (`fonte bench`, the vector tests).

use super::VectorIndex;

/// Seeded unit vectors for tests and benchmarks (xorshift; no RNG dependency needed).
pub fn random_unit_vectors(n: usize, dim: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut state = seed.max(1);
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    (0..n)
        .map(|_| {
            let mut v: Vec<f32> = (0..dim).map(|_| next()).collect();
            crate::embed::l2_normalize(&mut v);
            v
        })
        .collect()
}

/// Mean fraction of the exact top `k` that `approx` also returns, over `queries`.
pub fn recall_at(exact: &VectorIndex, approx: &VectorIndex, queries: &[Vec<f32>], k: usize) -> f32 {
    let mut hit = 0usize;
    for q in queries {
        let truth: Vec<u32> = exact
            .search(q, k, &|_| true)
            .into_iter()
            .map(|x| x.0)
            .collect();
        let got: Vec<u32> = approx
            .search(q, k, &|_| true)
            .into_iter()
            .map(|x| x.0)
            .collect();
        hit += truth.iter().filter(|t| got.contains(t)).count();
    }
    hit as f32 / (queries.len() * k) as f32
}
