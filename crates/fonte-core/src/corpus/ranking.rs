//! How a library ranks: the fusion of its rankings and the model's language axis, set per
//! model ([`Corpus::rank_for`]), and the search over its indexes.

use super::Corpus;
use crate::retrieve::{within_budget, Fusion, Hit, Retriever, Search};

impl Corpus {
    /// How hybrid search fuses BM25 and dense rankings.
    pub fn fusion(&self) -> Fusion {
        self.fusion
    }

    /// Sets how hybrid search fuses the rankings (per model, or swept by `fonte eval`).
    pub fn set_fusion(&mut self, fusion: Fusion) {
        self.fusion = fusion;
    }

    /// Sets the model's language axis ([`crate::embed::ModelManifest::language_direction`]),
    /// made unit length (empty, or one of another dimension than the library's: none).
    pub fn set_language_direction(&mut self, mut direction: Vec<f32>) {
        let norm = direction.iter().map(|x| x * x).sum::<f32>().sqrt();
        if direction.len() != self.info.dim || norm == 0.0 {
            direction.clear();
        }
        direction.iter_mut().for_each(|x| *x /= norm);
        self.direction = direction;
    }

    /// Computes each chunk's hubness for [`crate::retrieve::Languages::Hubness`] (with the
    /// language axis set before, if any): quadratic in the chunks, for `fonte eval`; dropped
    /// when the chunks or their vectors change.
    pub fn compute_hubness(&mut self) {
        self.hubness = crate::retrieve::hubness(
            &self.vectors,
            &self.direction,
            crate::retrieve::HUBNESS_NEIGHBOURS,
        );
    }

    /// Ranks as measured for `model` (its vectors are this library's): the fusion of
    /// [`Fusion::for_model`] and the model's language axis.
    pub fn rank_for(&mut self, model: &crate::embed::ModelManifest) {
        self.fusion = Fusion::for_model(model);
        self.set_language_direction(model.language_direction.clone());
    }

    /// Ranks chunks for a question (see [`Retriever::search`]).
    pub fn search(&self, search: &Search<'_>) -> Vec<Hit> {
        Retriever {
            lexical: &self.lexical,
            dense: &self.dense,
            chunk_doc: &self.chunk_doc,
            chunk_lang: &self.chunk_lang,
            pending: &self.pending,
            fusion: self.fusion,
            vectors: &self.vectors,
            direction: &self.direction,
            hubness: &self.hubness,
        }
        .search(search)
    }

    /// The best hits whose text fits in `budget` characters.
    pub fn evidence(&self, hits: &[Hit], budget: usize) -> Vec<Hit> {
        within_budget(
            hits,
            |c| self.chunks[c as usize].chunk.text.chars().count(),
            budget,
        )
    }
}
