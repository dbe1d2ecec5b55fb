//! How a library ranks: the fusion of its rankings and the model's language axis, set per
//! model ([`Corpus::rank_for`]), and the search over its indexes.

use super::Corpus;
use crate::retrieve::{
    within_budget, Fusion, Hit, Languages, Neighbours, Retriever, Search, HUBNESS_NEIGHBOURS,
};

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
        if self
            .neighbours
            .as_ref()
            .is_some_and(|n| n.direction() != direction)
        {
            // Measured along another axis: they no longer say how this library ranks.
            self.neighbours = None;
        }
        self.direction = direction;
    }

    /// Makes sure each chunk's nearest neighbours ([`Neighbours`], what
    /// [`Languages::Hubness`] ranks with) are there for the language axis set now: computed
    /// from scratch (quadratic in the chunks) when missing, then kept up to date by every
    /// change and saved with the corpus. True when they had to be computed (the saved corpus
    /// lacks them).
    pub fn keep_neighbours(&mut self) -> bool {
        if self.neighbours.is_some() {
            return false;
        }
        self.neighbours = Some(Neighbours::compute(
            &self.vectors,
            &self.direction,
            HUBNESS_NEIGHBOURS,
        ));
        true
    }

    /// Whether each chunk's nearest neighbours are kept ([`keep_neighbours`](Self::keep_neighbours)).
    pub fn has_neighbours(&self) -> bool {
        self.neighbours.is_some()
    }

    /// Ranks as measured for `model` (its vectors are this library's): the fusion of
    /// [`Fusion::for_model`] and the model's language axis, and the neighbours that fusion
    /// needs. True when the neighbours had to be computed (then the corpus is worth saving).
    pub fn rank_for(&mut self, model: &crate::embed::ModelManifest) -> bool {
        self.fusion = Fusion::for_model(model);
        self.set_language_direction(model.language_direction.clone());
        self.fusion.languages == Languages::Hubness && self.keep_neighbours()
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
            hubness: self.neighbours.as_ref().map_or(&[], |n| n.hubness()),
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
