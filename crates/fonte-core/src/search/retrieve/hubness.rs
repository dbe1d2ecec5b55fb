//! Passages close to every question ("hubs"), and the correction cross-lingual retrieval uses
//! for them: CSLS (cross-domain similarity local scaling, Conneau et al., 2018), which ranks a
//! passage by its cosine to the question less its mean cosine to its nearest neighbours. In a
//! library of several manuals such passages (a "see also" line, a paragraph on labels) take
//! the places of the passage that answers (docs/QUALITY.md §4, "hubness").
//!
//! A passage's hubness depends on the whole library, so it is kept with it ([`Neighbours`]):
//! each passage's best cosines to the others, updated from one scan per vector added (a new
//! vector can only enter other passages' lists) and, when vectors leave, recomputed for the
//! passages that had one of them among their nearest. From scratch it is quadratic in the
//! library (docs/QUALITY.md §4 gives the cost), which a library must not pay when it opens.

use serde::{Deserialize, Serialize};

use crate::search::vector::dot_wide as dot;

/// How much of a passage's hubness comes off its cosine ([`super::Languages::Hubness`]):
/// 0.15, the largest measured (of 0.15, ¼, ½, 1: docs/QUALITY.md §4) that costs no FAQ pair
/// more than one question; larger over-corrects.
pub const HUBNESS_WEIGHT: f32 = 0.15;

/// How many nearest passages a passage's hubness averages (10 and 50 measured alike).
pub const HUBNESS_NEIGHBOURS: usize = 50;

/// Each passage's cosines to its nearest other passages, with the model's language axis
/// projected out of both (as [`super::Languages::Projected`] ranks), and their mean: the
/// passage's hubness. Passages are numbered as the library's chunks; one whose vector has not
/// come yet has no list and is nobody's neighbour.
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbours {
    k: usize,
    // The unit axis the cosines were measured with (empty: none).
    direction: Vec<f32>,
    // Per passage: its vector's component along the axis and the norm of the rest; `None`
    // while its vector is to come.
    axis: Vec<Option<(f32, f32)>>,
    // Per passage: the cosines to its `k` nearest others, best first.
    lists: Vec<Vec<f32>>,
    // Per passage: the mean of its list (0 for an empty one).
    hubness: Vec<f32>,
    // Passages `0..built` have their lists; those after wait for `build` (a library whose
    // neighbours are computed a slice at a time) and are nobody's neighbour until then.
    built: usize,
    // Per passage: its list lost a neighbour that left (`forget`) and waits for `build` to be
    // computed again; `stale_count` of them.
    stale: Vec<bool>,
    stale_count: usize,
}

/// Passages whose lists [`Neighbours::build`] computes together.
const BLOCK: usize = 32;

/// What is saved of [`Neighbours`]: the lists and what they were measured with; the rest
/// follows from the vectors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedNeighbours {
    k: u32,
    direction: Vec<f32>,
    lists: Vec<Vec<f32>>,
}

impl Neighbours {
    /// Nothing computed yet for a library of `len` passages: [`build`](Self::build) computes
    /// the lists a slice at a time.
    pub fn new(len: usize, direction: &[f32], k: usize) -> Self {
        let mut n = Self {
            k,
            direction: direction.to_vec(),
            axis: Vec::new(),
            lists: Vec::new(),
            hubness: Vec::new(),
            built: 0,
            stale: Vec::new(),
            stale_count: 0,
        };
        n.grow(len);
        n.built = 0;
        n
    }

    /// Every passage's list from scratch: each pair of `vectors` once (empty vectors: none
    /// yet). `direction` is a unit vector or empty.
    pub fn compute(vectors: &[Vec<f32>], direction: &[f32], k: usize) -> Self {
        let mut n = Self::new(vectors.len(), direction, k);
        n.build(vectors, usize::MAX);
        n
    }

    /// Whether every passage has its list (none is waiting for [`build`](Self::build)).
    pub fn is_complete(&self) -> bool {
        self.built == self.axis.len() && self.stale_count == 0
    }

    /// Computes the lists of the passages still waiting, in order, until about `pairs` pairs
    /// were compared (at least one passage's worth), so a library opened without them gets
    /// them without holding the page for seconds: first those that lost a neighbour
    /// ([`forget`](Self::forget)), one scan each, then those never computed. True when every
    /// passage has its list.
    pub fn build(&mut self, vectors: &[Vec<f32>], pairs: usize) -> bool {
        let len = self.axis.len().min(vectors.len());
        let mut done = 0usize;
        let mut j = 0;
        while self.stale_count > 0 && done < pairs && j < self.stale.len() {
            if self.stale[j] {
                self.recompute(vectors, j);
                self.stale[j] = false;
                self.stale_count -= 1;
                done += self.axis.len();
            }
            j += 1;
        }
        while self.built < len && done < pairs {
            // A block of passages whose pairs with every earlier one fit the budget: each
            // earlier vector is read once per block instead of once per passage (the block
            // stays in cache).
            let start = self.built;
            let mut end = start + 1;
            done += start;
            while end < len && end - start < BLOCK && done + end <= pairs {
                done += end;
                end += 1;
            }
            for (i, v) in vectors.iter().enumerate().take(end).skip(start) {
                self.axis[i] = self.axis_of(v);
            }
            // Each pair (j, i), j < i, i in the block, once.
            for j in 0..end - 1 {
                let Some(aj) = self.axis[j] else { continue };
                for i in (j + 1).max(start)..end {
                    if let Some(ai) = self.axis[i] {
                        let s = cosine(&vectors[i], ai, &vectors[j], aj);
                        if self.offer(j, s) && j < start {
                            self.refresh(j);
                        }
                        self.offer(i, s);
                    }
                }
            }
            for i in start..end {
                self.refresh(i);
            }
            self.built = end;
        }
        self.is_complete()
    }

    /// Each passage's hubness, numbered as the chunks.
    pub fn hubness(&self) -> &[f32] {
        &self.hubness
    }

    /// The axis they were measured with.
    pub fn direction(&self) -> &[f32] {
        &self.direction
    }

    /// Room for passages up to `len`, without vectors yet; passages added to complete lists
    /// are [`add`](Self::add)ed as their vectors come, those added while they are being built
    /// wait for [`build`](Self::build).
    pub fn grow(&mut self, len: usize) {
        if len > self.axis.len() {
            let all_built = self.built == self.axis.len();
            self.axis.resize(len, None);
            self.lists.resize(len, Vec::new());
            self.hubness.resize(len, 0.0);
            self.stale.resize(len, false);
            if all_built {
                self.built = len;
            }
        }
    }

    /// Passage `i` has its vector now (`vectors[i]`, which must not have changed since it was
    /// last added: [`forget`](Self::forget) it first): one scan of the others.
    pub fn add(&mut self, vectors: &[Vec<f32>], i: usize) {
        self.grow(vectors.len());
        if self.axis[i].is_some() || i >= self.built {
            return;
        }
        let Some(ai) = self.axis_of(&vectors[i]) else {
            return;
        };
        for j in 0..self.axis.len() {
            if let Some(aj) = self.axis[j] {
                let s = cosine(&vectors[i], ai, &vectors[j], aj);
                self.offer(i, s);
                if self.offer(j, s) {
                    self.refresh(j);
                }
            }
        }
        self.axis[i] = Some(ai);
        self.refresh(i);
    }

    /// Passages `gone` lose their vectors (`vectors` still holds them): they leave every
    /// list, and each passage that had one of them among its nearest waits for
    /// [`build`](Self::build) to get its list again from a scan of those left (one scan each:
    /// a document leaving can touch most of a library, which must not hold the page).
    pub fn forget(&mut self, vectors: &[Vec<f32>], gone: &[usize]) {
        let gone: Vec<(usize, (f32, f32))> = gone
            .iter()
            .filter_map(|&g| Some((g, self.axis.get(g).copied().flatten()?)))
            .collect();
        if gone.is_empty() {
            return;
        }
        for &(g, _) in &gone {
            self.axis[g] = None;
            self.lists[g].clear();
            self.hubness[g] = 0.0;
        }
        let affected: Vec<usize> = (0..self.axis.len())
            .filter(|&j| {
                let Some(aj) = self.axis[j] else { return false };
                let list = &self.lists[j];
                // A list shorter than k holds every other passage, the gone ones too.
                list.len() < self.k
                    || gone.iter().any(|&(g, ag)| {
                        cosine(&vectors[g], ag, &vectors[j], aj) >= *list.last().expect("k > 0")
                    })
            })
            .collect();
        for j in affected {
            if !self.stale[j] {
                self.stale[j] = true;
                self.stale_count += 1;
            }
        }
    }

    /// Passage `j`'s list again, from a scan of every other passage with a vector.
    fn recompute(&mut self, vectors: &[Vec<f32>], j: usize) {
        let Some(aj) = self.axis[j] else {
            return;
        };
        let mut sims: Vec<f32> = (0..self.axis.len())
            .filter(|&i| i != j)
            .filter_map(|i| Some(cosine(&vectors[i], self.axis[i]?, &vectors[j], aj)))
            .collect();
        let k = self.k.min(sims.len());
        if k > 0 && k < sims.len() {
            sims.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
        }
        sims.truncate(k);
        sims.sort_by(|a, b| b.total_cmp(a));
        self.lists[j] = sims;
        self.refresh(j);
    }

    /// Keeps the passages whose `keep` is true, numbered anew in order; those dropped must
    /// have been [`forget`](Self::forget)ten (or never had a vector).
    pub fn retain(&mut self, keep: &[bool]) {
        self.built = (0..self.built)
            .filter(|&i| keep.get(i).copied().unwrap_or(true))
            .count();
        self.stale = retained(std::mem::take(&mut self.stale), keep);
        self.stale_count = self.stale.iter().filter(|&&s| s).count();
        self.axis = retained(std::mem::take(&mut self.axis), keep);
        self.lists = retained(std::mem::take(&mut self.lists), keep);
        self.hubness = retained(std::mem::take(&mut self.hubness), keep);
    }

    /// What to save (of complete lists: [`is_complete`](Self::is_complete)).
    pub fn saved(&self) -> SavedNeighbours {
        SavedNeighbours {
            k: self.k as u32,
            direction: self.direction.clone(),
            lists: self.lists.clone(),
        }
    }

    /// Back from what [`saved`](Self::saved) gave, for these `vectors`; `None` when it does
    /// not fit them (another count, a list where there is no vector, too long or unsorted):
    /// then they are computed again rather than trusted.
    pub fn restore(saved: SavedNeighbours, vectors: &[Vec<f32>]) -> Option<Self> {
        let k = saved.k as usize;
        if k == 0 || saved.lists.len() != vectors.len() {
            return None;
        }
        let mut n = Self {
            k,
            direction: saved.direction,
            axis: Vec::new(),
            lists: saved.lists,
            hubness: Vec::new(),
            built: vectors.len(),
            stale: vec![false; vectors.len()],
            stale_count: 0,
        };
        n.axis = vectors.iter().map(|v| n.axis_of(v)).collect();
        n.hubness = vec![0.0; vectors.len()];
        for i in 0..vectors.len() {
            let list = &n.lists[i];
            let fits = list.len() <= k
                && (n.axis[i].is_some() || list.is_empty())
                && list.windows(2).all(|w| w[0] >= w[1])
                && list.iter().all(|s| s.is_finite());
            if !fits {
                return None;
            }
            n.refresh(i);
        }
        Some(n)
    }

    fn axis_of(&self, v: &[f32]) -> Option<(f32, f32)> {
        if v.is_empty() {
            return None;
        }
        let along = if self.direction.is_empty() {
            0.0
        } else {
            dot(v, &self.direction)
        };
        let norm = (dot(v, v) - along * along).max(0.0).sqrt();
        Some((along, norm.max(f32::EPSILON)))
    }

    /// Puts `s` in passage `i`'s list if it is among its `k` best; whether it went in.
    fn offer(&mut self, i: usize, s: f32) -> bool {
        let list = &mut self.lists[i];
        if list.len() == self.k {
            if s <= *list.last().expect("k > 0") {
                return false;
            }
            list.pop();
        }
        let at = list.partition_point(|&x| x >= s);
        list.insert(at, s);
        true
    }

    fn refresh(&mut self, i: usize) {
        let list = &self.lists[i];
        self.hubness[i] = if list.is_empty() {
            0.0
        } else {
            list.iter().sum::<f32>() / list.len() as f32
        };
    }
}

/// The cosine of two passages with the axis out of both: `(a·b − a_d b_d) / (|a⊥| |b⊥|)`, the
/// same value whichever comes first (so a list kept up to date equals one computed afresh).
fn cosine(
    a: &[f32],
    (a_along, a_norm): (f32, f32),
    b: &[f32],
    (b_along, b_norm): (f32, f32),
) -> f32 {
    (dot(a, b) - a_along * b_along) / (a_norm * b_norm)
}

/// The items of `v` whose `keep` is true (past the end of `keep`: kept).
fn retained<T>(v: Vec<T>, keep: &[bool]) -> Vec<T> {
    v.into_iter()
        .enumerate()
        .filter(|(i, _)| keep.get(*i).copied().unwrap_or(true))
        .map(|(_, x)| x)
        .collect()
}

#[cfg(test)]
mod tests;
