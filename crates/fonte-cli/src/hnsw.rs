//! `fonte hnsw-recall`: recall@10 of the approximate vector indexes (HNSW, int8 scan) against
//! exact search, on seeded random vectors or a corpus's vectors, with build and query times
//! from one run.

use std::path::{Path, PathBuf};

use fonte_core::search::vector::HnswParams;

use crate::index;

/// Arguments of `fonte hnsw-recall`.
#[derive(clap::Args)]
pub struct HnswArgs {
    /// Number of random unit vectors (ignored with --corpus).
    #[arg(long, default_value_t = 100_000)]
    pub n: usize,
    /// Dimension of the random vectors.
    #[arg(long, default_value_t = 384)]
    pub dim: usize,
    /// Use this corpus file's chunk vectors instead (queries: held-out chunks).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Queries.
    #[arg(long, default_value_t = 200)]
    pub queries: usize,
    /// Seed for the random vectors and queries.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// HNSW efConstruction.
    #[arg(long, default_value_t = HnswParams::default().ef_construction)]
    pub ef_construction: usize,
    /// HNSW ef at search time.
    #[arg(long, default_value_t = HnswParams::default().ef_search)]
    pub ef_search: usize,
    /// Skip the HNSW build (slow above ~50k vectors) and measure only the int8 scan.
    #[arg(long)]
    pub no_hnsw: bool,
}

/// `fonte hnsw-recall`.
pub fn run(a: &HnswArgs) -> Result<(), String> {
    let params = HnswParams {
        ef_construction: a.ef_construction,
        ef_search: a.ef_search,
        ..HnswParams::default()
    };
    let hnsw = (!a.no_hnsw).then_some(params);
    hnsw_recall(a.n, a.dim, a.corpus.as_deref(), a.queries, a.seed, hnsw)
}

fn hnsw_recall(
    n: usize,
    dim: usize,
    corpus: Option<&Path>,
    queries: usize,
    seed: u64,
    hnsw: Option<HnswParams>,
) -> Result<(), String> {
    use fonte_core::search::vector::{random_unit_vectors, recall_at, VectorIndex};
    use std::time::Instant;
    let (data, qs, what) = match corpus {
        Some(path) => {
            let c = index::load(path)?;
            let mut v = c.vectors().to_vec();
            // Every k-th vector becomes a query and leaves the data, so no query finds itself.
            let step = (v.len() / queries.max(1)).max(2);
            let mut qs = Vec::new();
            let mut i = 0;
            while i < v.len() && qs.len() < queries {
                qs.push(v.remove(i));
                i += step - 1;
            }
            let what = format!("{} chunk vectors of {}", v.len(), path.display());
            (v, qs, what)
        }
        None => (
            random_unit_vectors(n, dim, seed),
            random_unit_vectors(queries, dim, seed ^ 0x9e37_79b9),
            format!("{n} random unit vectors, dim {dim} (data seed {seed})"),
        ),
    };
    let dim = data.first().map_or(dim, Vec::len);
    println!("{what}; {} queries", qs.len());
    let exact = VectorIndex::build_exact(dim, data.clone()).map_err(|e| e.to_string())?;
    let per_query = |index: &VectorIndex| {
        let t = Instant::now();
        for q in &qs {
            std::hint::black_box(index.search(q, 10, &|_| true));
        }
        t.elapsed().as_secs_f64() * 1000.0 / qs.len().max(1) as f64
    };
    let exact_ms = per_query(&exact);
    println!("exact f32 scan: {exact_ms:.2} ms/query");

    let mut candidates = Vec::new();
    let t = Instant::now();
    let int8 = VectorIndex::build_int8(dim, data.clone()).map_err(|e| e.to_string())?;
    candidates.push(("int8 scan".to_string(), int8, t.elapsed()));
    if let Some(params) = hnsw {
        let t = Instant::now();
        let index = VectorIndex::build_hnsw(dim, data, params).map_err(|e| e.to_string())?;
        let name = format!(
            "hnsw (instant-distance, seed {:#x}, ef_construction {}, ef_search {})",
            params.seed, params.ef_construction, params.ef_search
        );
        candidates.push((name, index, t.elapsed()));
    }
    for (name, index, build) in &candidates {
        let recall = recall_at(&exact, index, &qs, 10);
        let ms = per_query(index);
        let bytes = index.to_bytes().map_err(|e| e.to_string())?;
        let back = VectorIndex::from_bytes(&bytes).map_err(|e| e.to_string())?;
        let same = qs
            .iter()
            .all(|q| back.search(q, 10, &|_| true) == index.search(q, 10, &|_| true));
        println!(
            "{name}: recall@10 {recall:.4}; build {:.1} s; {ms:.2} ms/query ({:.2}x exact); \
             serialized {} bytes; round trip identical: {same}",
            build.as_secs_f64(),
            ms / exact_ms,
            bytes.len()
        );
        if !same {
            return Err(format!(
                "{name}: deserialized index gives different results"
            ));
        }
    }
    Ok(())
}
