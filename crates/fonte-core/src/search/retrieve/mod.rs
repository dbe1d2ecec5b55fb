//! Hybrid retrieval: BM25 and dense rankings fused by reciprocal rank fusion, restricted to the
//! documents in scope, then cut to an evidence budget in characters (what the prompt can hold).

mod hubness;
mod languages;
mod search;

pub use hubness::{Neighbours, SavedNeighbours, HUBNESS_NEIGHBOURS, HUBNESS_WEIGHT};
pub use languages::without_axis;
pub use search::{Search, Wording};

use std::collections::HashMap;

use crate::search::lang::Lang;
use crate::search::lexical::Bm25;
use crate::search::vector::VectorIndex;

/// Which rankings to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// BM25 alone.
    Lexical,
    /// Embeddings alone.
    Dense,
    /// Both, fused by RRF.
    Hybrid,
}

/// The RRF constant: how much the first ranks outweigh the later ones. Cormack et al. (2009)
/// use 60; on the Debian FAQ questions 20 beat both BM25 and dense alone in every language pair
/// while 60 did not (docs/QUALITY.md): with a budget of a few passages, what each ranking puts
/// first must make it into the evidence.
pub const RRF_K: f32 = 20.0;

/// Passages each ranking contributes to the fusion, wherever Fonte searches (the search box,
/// asking, the CLI, `fonte eval`). A passage a ranking leaves out gets nothing from it, so too
/// short a list makes the fused order jump when a passage crosses its end: at 10, two sets
/// of vectors of the same PDF from two runtimes (cosine ≥ 0.9989) put different first results
/// for a question whose one BM25 hit sat at the edge of the dense list (docs/QUALITY.md §2,
/// "How deep each ranking goes").
pub const DEPTH: usize = 100;

/// [`Fusion::wording_weight`]: a translation counts as much as the question. Half cost less
/// with a tiny model's poor translations but lost a good translation's pt→en gain
/// (docs/QUALITY.md §4, "The question's translation").
pub const WORDING_WEIGHT: f32 = 1.0;

/// One retrieved chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Chunk number.
    pub chunk: u32,
    /// Fused score (RRF), or the single ranking's score.
    pub score: f32,
    /// 1-based rank in the BM25 list, if it was there.
    pub lexical_rank: Option<u32>,
    /// 1-based rank in the dense list, if it was there.
    pub dense_rank: Option<u32>,
}

/// How hybrid retrieval fuses its two rankings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fusion {
    /// RRF constant.
    pub k: f32,
    /// Weight of the dense ranking (BM25's is 1).
    pub dense_weight: f32,
    /// How the dense ranking treats passages of different languages.
    pub languages: Languages,
    /// The model's [`crate::embed::ModelManifest::language_gap`], for [`Languages::Offset`].
    pub language_gap: f32,
    /// Weight of another wording's rankings ([`Search::also`]) relative to the question's own.
    pub wording_weight: f32,
}

/// How the dense ranking treats a library that mixes languages. A bilingual model puts a
/// passage in the question's language closer to it than the passage in the other language
/// that answers it, so in one joint ranking an English answer to a Portuguese question sinks
/// below Portuguese passages about something else (docs/QUALITY.md §4, "A mixed library").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Languages {
    /// One dense ranking over every passage.
    Joint,
    /// One dense ranking per passage language, each fused as a list of its own with the dense
    /// weight: each language's best passages reach the fusion.
    PerLanguage,
    /// The per-language rankings interleaved (first of each, then second of each…) into one
    /// dense list.
    Interleaved,
    /// One ranking of the cosines less the mean cosine of that language's top passages: a
    /// language prior taken off the scores, per question.
    Centered,
    /// One ranking, the model's language gap added to the cosine of every passage in the
    /// other language than the question's: a language prior of the model, the same for every
    /// question (none when the question's language cannot be told).
    Offset,
    /// One ranking of the cosines with the model's language axis
    /// ([`Retriever::direction`]) projected out of the question and of every passage: what
    /// tells the languages apart no longer counts, for each passage by how much it carries.
    Projected,
    /// [`Languages::Projected`] less [`HUBNESS_WEIGHT`] times each passage's hubness, its mean
    /// cosine to its nearest passages of the library ([`Neighbours`]): CSLS (docs/QUALITY.md
    /// §4, "hubness"). Without [`Retriever::hubness`] it ranks as `Projected`.
    Hubness,
}

impl Fusion {
    /// The fusion measured for a model: [`RRF_K`], the manifest's dense weight, and for a
    /// bilingual model its language axis projected out with each passage's hubness taken off
    /// ([`Languages::Hubness`]), or where its manifest has only a language gap,
    /// [`Languages::Offset`] by that gap.
    pub fn for_model(manifest: &crate::embed::ModelManifest) -> Self {
        Self {
            k: RRF_K,
            dense_weight: manifest.dense_weight,
            language_gap: manifest.language_gap,
            wording_weight: WORDING_WEIGHT,
            languages: if !manifest.language_direction.is_empty() {
                Languages::Hubness
            } else if manifest.language_gap > 0.0 {
                Languages::Offset
            } else {
                Languages::Joint
            },
        }
    }
}

impl Default for Fusion {
    fn default() -> Self {
        Self {
            k: RRF_K,
            dense_weight: 1.0,
            languages: Languages::Joint,
            language_gap: 0.0,
            wording_weight: WORDING_WEIGHT,
        }
    }
}

/// Reciprocal rank fusion of ranked id lists: `score(d) = sum 1 / (k + rank)`, ties broken by
/// id so results are deterministic.
pub fn rrf(lists: &[Vec<u32>], k: f32) -> Vec<(u32, f32)> {
    let weighted: Vec<(&[u32], f32)> = lists.iter().map(|l| (l.as_slice(), 1.0)).collect();
    rrf_weighted(&weighted, k)
}

/// [`rrf`] with a weight per list: `score(d) = sum w / (k + rank)`.
pub fn rrf_weighted(lists: &[(&[u32], f32)], k: f32) -> Vec<(u32, f32)> {
    let mut scores: HashMap<u32, f32> = HashMap::new();
    for (list, weight) in lists {
        for (rank, id) in list.iter().enumerate() {
            *scores.entry(*id).or_default() += weight / (k + rank as f32 + 1.0);
        }
    }
    let mut fused: Vec<(u32, f32)> = scores.into_iter().collect();
    fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    fused
}

/// Keeps hits in rank order while their text fits in `budget` characters; a hit too long for
/// what is left is skipped so a shorter one further down can still use the room.
pub fn within_budget(hits: &[Hit], chars: impl Fn(u32) -> usize, budget: usize) -> Vec<Hit> {
    let mut used = 0;
    let mut out = Vec::new();
    for h in hits {
        let n = chars(h.chunk);
        if used + n <= budget {
            used += n;
            out.push(h.clone());
        }
    }
    out
}

/// BM25 + vectors over the same chunk numbering, with each chunk's document.
pub struct Retriever<'a> {
    /// Lexical index.
    pub lexical: &'a Bm25,
    /// Dense index.
    pub dense: &'a VectorIndex,
    /// Document number of each chunk, for scoping.
    pub chunk_doc: &'a [u32],
    /// Language of each chunk ([`crate::search::lang::passage_languages`]).
    pub chunk_lang: &'a [Option<Lang>],
    /// Per chunk, whether its vector is still to come (kept out of the dense ranking); empty
    /// when every chunk has one.
    pub pending: &'a [bool],
    /// How [`Mode::Hybrid`] fuses.
    pub fusion: Fusion,
    /// Each chunk's vector (empty while it is still to come), for [`Languages::Projected`].
    pub vectors: &'a [Vec<f32>],
    /// The model's language axis ([`crate::embed::ModelManifest::language_direction`]), unit
    /// length; empty for none.
    pub direction: &'a [f32],
    /// Each chunk's hubness ([`Neighbours::hubness`]), for [`Languages::Hubness`]; empty for none.
    pub hubness: &'a [f32],
    /// Per document, whether a newer version supersedes it; empty for none.
    pub superseded: &'a [bool],
}

/// One wording's rankings: BM25's and the dense one(s).
struct Rankings {
    lexical: Vec<(u32, f32)>,
    dense: Vec<Vec<(u32, f32)>>,
}

impl Retriever<'_> {
    /// Ranks chunks for a question ([`Search`]).
    pub fn search(&self, search: &Search<'_>) -> Vec<Hit> {
        let Search {
            question,
            vector,
            also,
            mode,
            depth,
            scope,
            all_versions,
        } = *search;
        let allow = |chunk: u32| {
            let doc = self.chunk_doc[chunk as usize];
            let current = all_versions || self.superseded.get(doc as usize) != Some(&true);
            current && scope.is_none_or(|docs| docs.contains(&doc))
        };
        let embedded = |chunk: u32| allow(chunk) && self.pending.get(chunk as usize) != Some(&true);
        let rank = |text: &str, vector: Option<&[f32]>| Rankings {
            lexical: match mode {
                Mode::Lexical | Mode::Hybrid => self.lexical.search(text, depth, &allow),
                Mode::Dense => Vec::new(),
            },
            dense: match (mode, vector) {
                (Mode::Dense | Mode::Hybrid, Some(q)) => {
                    self.dense_lists(text, q, depth, &embedded)
                }
                _ => Vec::new(),
            },
        };
        let own = rank(question, vector);
        let others: Vec<Rankings> = also.iter().map(|w| rank(w.text, w.vector)).collect();
        let rank_of = |list: &[(u32, f32)], id: u32| {
            list.iter().position(|x| x.0 == id).map(|p| p as u32 + 1)
        };
        // The ranks shown are the question's own; a passage found only by another wording
        // has none.
        let dense_rank = |id: u32| own.dense.iter().find_map(|l| rank_of(l, id));
        let scored: Vec<(u32, f32)> = if others.is_empty() {
            self.fuse_one(mode, &own)
        } else {
            let all: Vec<&Rankings> = std::iter::once(&own).chain(&others).collect();
            self.fuse(mode, &all)
        };
        scored
            .into_iter()
            .map(|(chunk, score)| Hit {
                chunk,
                score,
                lexical_rank: rank_of(&own.lexical, chunk),
                dense_rank: dense_rank(chunk),
            })
            .collect()
    }

    /// One wording's hits: a single ranking keeps its own scores (BM25's, the cosine).
    fn fuse_one(&self, mode: Mode, own: &Rankings) -> Vec<(u32, f32)> {
        match mode {
            Mode::Lexical => own.lexical.clone(),
            Mode::Dense if own.dense.len() == 1 => own.dense[0].clone(),
            _ => self.fuse(mode, &[own]),
        }
    }

    /// Every wording's rankings `mode` asks for, fused by RRF (BM25's weigh 1, the dense ones
    /// [`Fusion::dense_weight`] in hybrid); chunks still without a vector imputed per wording.
    fn fuse(&self, mode: Mode, all: &[&Rankings]) -> Vec<(u32, f32)> {
        let ids = |l: &[(u32, f32)]| l.iter().map(|x| x.0).collect::<Vec<u32>>();
        let dense_weight = match mode {
            Mode::Hybrid => self.fusion.dense_weight,
            _ => 1.0,
        };
        let weight = |i: usize| {
            if i == 0 {
                1.0
            } else {
                self.fusion.wording_weight
            }
        };
        let mut lists: Vec<(Vec<u32>, f32)> = Vec::new();
        for (i, r) in all.iter().enumerate() {
            if mode != Mode::Dense {
                lists.push((ids(&r.lexical), weight(i)));
            }
            lists.extend(r.dense.iter().map(|l| (ids(l), weight(i) * dense_weight)));
        }
        let borrowed: Vec<(&[u32], f32)> = lists.iter().map(|(l, w)| (l.as_slice(), *w)).collect();
        let mut fused = rrf_weighted(&borrowed, self.fusion.k);
        if mode == Mode::Hybrid {
            for (i, r) in all.iter().enumerate() {
                self.impute_pending(&mut fused, &r.lexical, r.dense.len() as f32 * weight(i));
            }
        }
        fused
    }

    /// A chunk whose vector has not come yet cannot be in the dense ranking(s); ranked as if
    /// the model had found it irrelevant, a document still embedding would lose every passage
    /// to the ones embedded before it (their dense ranks weigh `dense_weight` times BM25's).
    /// So it takes, in each dense ranking, the rank it has in BM25's: the one estimate there is.
    /// `dense_lists` counts the wording's dense rankings, each by its weight.
    fn impute_pending(&self, fused: &mut [(u32, f32)], lexical: &[(u32, f32)], dense_lists: f32) {
        if self.pending.is_empty() || dense_lists == 0.0 {
            return;
        }
        let weight = self.fusion.dense_weight * dense_lists;
        let mut changed = false;
        for (chunk, score) in fused.iter_mut() {
            if self.pending.get(*chunk as usize) != Some(&true) {
                continue;
            }
            if let Some(rank) = lexical.iter().position(|x| x.0 == *chunk) {
                *score += weight / (self.fusion.k + rank as f32 + 1.0);
                changed = true;
            }
        }
        if changed {
            fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        }
    }
}

#[cfg(test)]
mod tests;
