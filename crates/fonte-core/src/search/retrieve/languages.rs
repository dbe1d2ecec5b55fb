//! The ways a dense ranking of a library in two languages is put together ([`super::Languages`]).

use super::hubness::HUBNESS_WEIGHT;
use super::{Languages, Retriever};
use crate::search::lang::Lang;

impl Retriever<'_> {
    /// The dense ranking(s) [`Fusion::languages`] asks for, `depth` deep each: one list, or
    /// one per passage language present in scope (a language with no passage gives none).
    pub(super) fn dense_lists(
        &self,
        question: &str,
        q: &[f32],
        depth: usize,
        allow: &dyn Fn(u32) -> bool,
    ) -> Vec<Vec<(u32, f32)>> {
        match self.fusion.languages {
            Languages::Joint => return vec![self.dense.search(q, depth, allow)],
            Languages::Projected | Languages::Hubness if !self.direction.is_empty() => {
                return vec![self.projected(q, depth, allow)]
            }
            _ => {}
        }
        let asked = Lang::detect(question);
        let (per_language, offsets): (Vec<Vec<(u32, f32)>>, Vec<f32>) =
            [Some(Lang::En), Some(Lang::Pt), None]
                .into_iter()
                .filter_map(|lang| {
                    let own = |c: u32| allow(c) && self.chunk_lang.get(c as usize) == Some(&lang);
                    let list = self.dense.search(q, depth, &own);
                    let other = asked.is_some() && lang.is_some() && lang != asked;
                    let gap = if other { self.fusion.language_gap } else { 0.0 };
                    (!list.is_empty()).then_some((list, gap))
                })
                .unzip();
        match self.fusion.languages {
            Languages::PerLanguage => per_language,
            Languages::Interleaved => vec![interleave(&per_language, depth)],
            Languages::Centered => vec![centered(per_language, depth)],
            Languages::Offset => vec![offset(per_language, &offsets, depth)],
            Languages::Joint | Languages::Projected | Languages::Hubness => {
                vec![self.dense.search(q, depth, allow)]
            }
        }
    }
}

impl Retriever<'_> {
    /// The cosines of the question and the passages with the language axis `d` projected out
    /// of both: `(q·p − (q·d)(p·d)) / (|q⊥| |p⊥|)`. The numerator is one scan with `q⊥ = q −
    /// (q·d)d` as the query; the passage's norm is applied to the candidates of a deeper scan.
    /// For [`Languages::Hubness`], less [`HUBNESS_WEIGHT`] times the passage's hubness.
    fn projected(&self, q: &[f32], depth: usize, allow: &dyn Fn(u32) -> bool) -> Vec<(u32, f32)> {
        let d = self.direction;
        let penalty = |c: u32| match self.fusion.languages {
            Languages::Hubness => {
                HUBNESS_WEIGHT * self.hubness.get(c as usize).copied().unwrap_or(0.0)
            }
            _ => 0.0,
        };
        let q_perp = without_axis(q, d);
        let q_norm = dot(&q_perp, &q_perp).sqrt().max(f32::EPSILON);
        let mut list: Vec<(u32, f32)> = self
            .dense
            .search(&q_perp, depth * PROJECTED_CANDIDATES, allow)
            .into_iter()
            .map(|(c, s)| {
                let p_along = self.vectors.get(c as usize).map_or(0.0, |v| dot(v, d));
                let p_norm = (1.0 - p_along * p_along).max(f32::EPSILON).sqrt();
                (c, s / (q_norm * p_norm) - penalty(c))
            })
            .collect();
        list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        list.truncate(depth);
        list
    }
}

/// How many times `depth` the projected scan keeps before each passage's norm reorders them.
const PROJECTED_CANDIDATES: usize = 3;

/// `v` with its component along the unit vector `axis` taken out: `v − (v·axis) axis`.
pub fn without_axis(v: &[f32], axis: &[f32]) -> Vec<f32> {
    let along = dot(v, axis);
    v.iter().zip(axis).map(|(x, y)| x - along * y).collect()
}

pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// First of each list, then second of each…, `depth` in all.
fn interleave(lists: &[Vec<(u32, f32)>], depth: usize) -> Vec<(u32, f32)> {
    let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .flat_map(|rank| lists.iter().filter_map(move |l| l.get(rank).copied()))
        .take(depth)
        .collect()
}

/// The lists merged by score plus each list's offset, `depth` in all.
fn offset(lists: Vec<Vec<(u32, f32)>>, offsets: &[f32], depth: usize) -> Vec<(u32, f32)> {
    let mut all: Vec<(u32, f32)> = lists
        .into_iter()
        .zip(offsets)
        .flat_map(|(l, &o)| l.into_iter().map(move |(c, s)| (c, s + o)))
        .collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(depth);
    all
}

/// The lists merged by score less their own mean score, `depth` in all.
fn centered(lists: Vec<Vec<(u32, f32)>>, depth: usize) -> Vec<(u32, f32)> {
    let means: Vec<f32> = lists
        .iter()
        .map(|l| -l.iter().map(|x| x.1).sum::<f32>() / l.len().max(1) as f32)
        .collect();
    offset(lists, &means, depth)
}
