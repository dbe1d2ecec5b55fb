//! Nearest-neighbour search over unit vectors: an exact f32 scan for small collections and an
//! int8 scan above [`EXACT_LIMIT`]; serializable with a format version.
//!
//! An HNSW graph through `instant-distance` (seeded, so a rebuild gives the same graph) is kept
//! for measurement but is not the default: at Fonte's sizes (up to ~100k chunks) it was slower
//! to query than a plain scan, took minutes to build, cannot take a new document without a
//! full rebuild, and reached recall@10 0.64 on random vectors at its defaults, against 0.99 for
//! the int8 scan (docs/QUALITY.md §3, "The vector index").

use instant_distance::{Builder, HnswMap, Point, Search};
use serde::{Deserialize, Serialize};

use crate::{Error, Result};

mod kernels;
mod measure;

use kernels::dot;
pub(crate) use kernels::dot_wide;
use kernels::{dot_i8, quantize};
pub use measure::{random_unit_vectors, recall_at};

/// Below this many vectors the scan is exact f32; from here on, int8 (4× less memory, ~2.5×
/// faster, recall@10 ≈ 0.99).
pub const EXACT_LIMIT: usize = 5_000;

/// Version of the serialized form; bump on any change of layout.
pub const FORMAT_VERSION: u32 = 2;

/// A unit vector as an HNSW point; distance is `1 - cosine`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit(pub Vec<f32>);

impl Point for Unit {
    fn distance(&self, other: &Self) -> f32 {
        1.0 - dot(&self.0, &other.0)
    }
}

#[derive(Serialize, Deserialize)]
enum Kind {
    Exact(Vec<f32>),
    Hnsw(HnswMap<Unit, u32>),
    /// Linear scan over int8 codes: a quarter of the memory of `Exact`, no build time, and
    /// appending is free.
    Int8 {
        codes: Vec<i8>,
        scales: Vec<f32>,
    },
}

/// Build parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HnswParams {
    /// RNG seed for layer assignment.
    pub seed: u64,
    /// `efConstruction`.
    pub ef_construction: usize,
    /// `ef` at search time.
    pub ef_search: usize,
}

impl Default for HnswParams {
    fn default() -> Self {
        Self {
            seed: 0x466f_6e74_6521,
            ef_construction: 100,
            ef_search: 100,
        }
    }
}

/// Vectors `0..n` (chunk numbers) and a way to find the nearest ones.
#[derive(Serialize, Deserialize)]
pub struct VectorIndex {
    format: u32,
    dim: usize,
    len: usize,
    params: HnswParams,
    kind: Kind,
}

impl VectorIndex {
    /// Indexes `vectors` (all of length `dim`, unit norm), choosing exact or int8 by size.
    pub fn build(dim: usize, vectors: Vec<Vec<f32>>) -> Result<Self> {
        if vectors.len() < EXACT_LIMIT {
            Self::build_exact(dim, vectors)
        } else {
            Self::build_int8(dim, vectors)
        }
    }

    /// Always a linear scan (the reference for recall measurements).
    pub fn build_exact(dim: usize, vectors: Vec<Vec<f32>>) -> Result<Self> {
        check_dims(dim, &vectors)?;
        let len = vectors.len();
        Ok(Self {
            format: FORMAT_VERSION,
            dim,
            len,
            params: HnswParams::default(),
            kind: Kind::Exact(vectors.into_iter().flatten().collect()),
        })
    }

    /// Always an int8 linear scan.
    pub fn build_int8(dim: usize, vectors: Vec<Vec<f32>>) -> Result<Self> {
        check_dims(dim, &vectors)?;
        let len = vectors.len();
        let mut codes = Vec::with_capacity(len * dim);
        let mut scales = Vec::with_capacity(len);
        for v in &vectors {
            let (code, scale) = quantize(v);
            codes.extend(code);
            scales.push(scale);
        }
        Ok(Self {
            format: FORMAT_VERSION,
            dim,
            len,
            params: HnswParams::default(),
            kind: Kind::Int8 { codes, scales },
        })
    }

    /// Always an HNSW graph.
    pub fn build_hnsw(dim: usize, vectors: Vec<Vec<f32>>, params: HnswParams) -> Result<Self> {
        check_dims(dim, &vectors)?;
        let len = vectors.len();
        let ids = (0..len as u32).collect();
        let map = Builder::default()
            .seed(params.seed)
            .ef_construction(params.ef_construction)
            .ef_search(params.ef_search)
            .build(vectors.into_iter().map(Unit).collect(), ids);
        Ok(Self {
            format: FORMAT_VERSION,
            dim,
            len,
            params,
            kind: Kind::Hnsw(map),
        })
    }

    /// Appends vectors (ids continue from [`len`](Self::len)) without touching the existing
    /// ones: a scan index grows in place, switching from exact to int8 when it passes
    /// [`EXACT_LIMIT`]. An HNSW graph cannot grow and is an error.
    pub fn extend(&mut self, vectors: &[Vec<f32>]) -> Result<()> {
        check_dims(self.dim, vectors)?;
        if let Kind::Exact(flat) = &self.kind {
            if self.len + vectors.len() >= EXACT_LIMIT {
                let (codes, scales) = flat.chunks_exact(self.dim.max(1)).map(quantize).fold(
                    (Vec::with_capacity(flat.len()), Vec::new()),
                    |(mut codes, mut scales), (c, s)| {
                        codes.extend(c);
                        scales.push(s);
                        (codes, scales)
                    },
                );
                self.kind = Kind::Int8 { codes, scales };
            }
        }
        match &mut self.kind {
            Kind::Exact(flat) => flat.extend(vectors.iter().flatten()),
            Kind::Int8 { codes, scales } => {
                for v in vectors {
                    let (c, s) = quantize(v);
                    codes.extend(c);
                    scales.push(s);
                }
            }
            Kind::Hnsw(_) => {
                return Err(Error::Index("an HNSW graph cannot grow; rebuild it".into()))
            }
        }
        self.len += vectors.len();
        Ok(())
    }

    /// Replaces vector `id` (a chunk whose vector came after its text: the index holds a zero
    /// placeholder until then, which the caller keeps out of its searches). A scan index
    /// writes it in place; an HNSW graph cannot and is an error.
    pub fn set(&mut self, id: u32, vector: &[f32]) -> Result<()> {
        if vector.len() != self.dim {
            return Err(Error::Index(format!(
                "vector {id} has dimension {}, expected {}",
                vector.len(),
                self.dim
            )));
        }
        let at = id as usize;
        if at >= self.len {
            return Err(Error::Index(format!(
                "vector {id} of an index of {}",
                self.len
            )));
        }
        match &mut self.kind {
            Kind::Exact(flat) => flat[at * self.dim..(at + 1) * self.dim].copy_from_slice(vector),
            Kind::Int8 { codes, scales } => {
                let (code, scale) = quantize(vector);
                codes[at * self.dim..(at + 1) * self.dim].copy_from_slice(&code);
                scales[at] = scale;
            }
            Kind::Hnsw(_) => {
                return Err(Error::Index(
                    "an HNSW graph cannot change; rebuild it".into(),
                ))
            }
        }
        Ok(())
    }

    /// Number of vectors.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether this index is an HNSW graph (else exact).
    pub fn is_hnsw(&self) -> bool {
        matches!(self.kind, Kind::Hnsw(_))
    }

    /// The `k` nearest vectors to `query` among those `allow` accepts, as (id, cosine), best
    /// first. HNSW with a filter widens its search until it has `k` accepted results or has
    /// seen every vector.
    pub fn search(&self, query: &[f32], k: usize, allow: &dyn Fn(u32) -> bool) -> Vec<(u32, f32)> {
        match &self.kind {
            Kind::Exact(flat) => top_k(
                flat.chunks_exact(self.dim)
                    .enumerate()
                    .filter(|(i, _)| allow(*i as u32))
                    .map(|(i, v)| (i as u32, dot(query, v)))
                    .collect(),
                k,
            ),
            Kind::Int8 { codes, scales } => {
                let (q, qs) = quantize(query);
                top_k(
                    codes
                        .chunks_exact(self.dim)
                        .zip(scales)
                        .enumerate()
                        .filter(|(i, _)| allow(*i as u32))
                        .map(|(i, (c, s))| (i as u32, dot_i8(&q, c) as f32 * qs * s))
                        .collect(),
                    k,
                )
            }
            Kind::Hnsw(map) => {
                let point = Unit(query.to_vec());
                let mut search = Search::default();
                let found: Vec<(u32, f32)> = map
                    .search(&point, &mut search)
                    .filter(|item| allow(*item.value))
                    .take(k)
                    .map(|item| (*item.value, 1.0 - item.distance))
                    .collect();
                if found.len() >= k.min(self.len) {
                    return found;
                }
                // The graph walk keeps only `ef` candidates, so a narrow scope (few allowed
                // vectors) can leave it short: scan the allowed vectors exactly instead.
                let mut all: Vec<(u32, f32)> = map
                    .iter()
                    .map(|(pid, p)| (map.values[pid.into_inner() as usize], p))
                    .filter(|(id, _)| allow(*id))
                    .map(|(id, p)| (id, dot(query, &p.0)))
                    .collect();
                all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                all.truncate(k);
                all
            }
        }
    }

    /// Serializes with the format version first.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        postcard::to_allocvec(self).map_err(|e| Error::Index(e.to_string()))
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote; another format version is an error, so
    /// the caller rebuilds instead of misreading.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let index: Self = postcard::from_bytes(bytes).map_err(|e| Error::Index(e.to_string()))?;
        if index.format != FORMAT_VERSION {
            return Err(Error::Index(format!(
                "vector index format {} (this build reads {FORMAT_VERSION}): rebuild it",
                index.format
            )));
        }
        Ok(index)
    }
}

/// The `k` best of `all`, best first (ties by id, so results are deterministic).
fn top_k(mut all: Vec<(u32, f32)>, k: usize) -> Vec<(u32, f32)> {
    let k = k.min(all.len());
    if k == 0 {
        return Vec::new();
    }
    all.select_nth_unstable_by(k - 1, |a, b| b.1.total_cmp(&a.1));
    all.truncate(k);
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    all
}

fn check_dims(dim: usize, vectors: &[Vec<f32>]) -> Result<()> {
    match vectors.iter().position(|v| v.len() != dim) {
        Some(i) => Err(Error::Index(format!(
            "vector {i} has dimension {}, expected {dim}",
            vectors[i].len()
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
