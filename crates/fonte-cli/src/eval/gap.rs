//! The model's language gap on a parallel set (`fonte eval` prints it for the FAQ set), and
//! what is left of it with the language axis projected out (docs/QUALITY.md §4).

use std::collections::HashMap;

use fonte_core::embed::cosine;
use fonte_core::search::retrieve::without_axis;

use super::Qa;
use crate::index;

/// The model's language gap on a parallel set (FAQ format): for each question, its cosine to
/// the gold passage in its own language less its cosine to the same passage in the other, by
/// question language.
pub fn language_gap(
    qa: &[Qa],
    vectors: &HashMap<&str, Vec<f32>>,
    embedder: &mut fonte_core::embed::Embedder<fonte_core::embed::native::OrtEncoder>,
    direction: &[f32],
) -> Result<[f32; 2], String> {
    let en: Vec<&str> = qa.iter().map(|q| q.gold("en")).collect();
    let pt: Vec<&str> = qa.iter().map(|q| q.gold("pt")).collect();
    let en = index::embed_all(embedder, &en)?;
    let pt = index::embed_all(embedder, &pt)?;
    // With a language axis, the cosines with it projected out of both (`projected`).
    let cos = |a: &[f32], b: &[f32]| {
        if direction.is_empty() {
            cosine(a, b)
        } else {
            cosine(&without_axis(a, direction), &without_axis(b, direction))
        }
    };
    let mut gap = [0.0f32; 2];
    for (i, q) in qa.iter().enumerate() {
        let (Some(qe), Some(qp)) = (vectors.get(q.q_en.as_str()), vectors.get(q.q_pt.as_str()))
        else {
            return Err(format!("{}: question not embedded", q.id));
        };
        gap[0] += cos(qe, &en[i]) - cos(qe, &pt[i]);
        gap[1] += cos(qp, &pt[i]) - cos(qp, &en[i]);
    }
    Ok(gap.map(|g| g / qa.len().max(1) as f32))
}
