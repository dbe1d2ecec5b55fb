//! The ways a dense ranking of a library in two languages is put together ([`super::Languages`]).

use super::{Languages, Retriever};
use crate::lang::Lang;

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
        if self.fusion.languages == Languages::Joint {
            return vec![self.dense.search(q, depth, allow)];
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
            Languages::Joint => unreachable!("returned above"),
        }
    }
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
