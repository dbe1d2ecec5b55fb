//! How a library ranks: the fusion of its rankings and the model's language axis, set per
//! model ([`Corpus::rank_for`]), and the search over its indexes.

use super::{Corpus, Standing};
use crate::search::retrieve::{
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
    /// from scratch (quadratic in the chunks) when missing or part-built, then kept up to
    /// date by every change and saved with the corpus. True when anything had to be computed.
    pub fn keep_neighbours(&mut self) -> bool {
        self.begin_neighbours();
        self.finish_neighbours()
    }

    /// Computes what is left of the neighbours begun; true when anything was.
    fn finish_neighbours(&mut self) -> bool {
        let missing = !self.build_neighbours(0);
        self.build_neighbours(usize::MAX);
        missing
    }

    /// Whether each chunk's nearest neighbours are all there (kept up to date from now on).
    pub fn has_neighbours(&self) -> bool {
        self.neighbours
            .as_ref()
            .is_some_and(Neighbours::is_complete)
    }

    /// Computes part of the neighbours [`prepare_ranking`](Self::prepare_ranking) found
    /// missing: about `pairs` pairs of chunks compared (a slice of a second in the browser).
    /// True when nothing is left to compute (or nothing was asked for); until then searches
    /// rank without them ([`Languages::Projected`]).
    pub fn build_neighbours(&mut self, pairs: usize) -> bool {
        match &mut self.neighbours {
            Some(n) if !n.is_complete() => n.build(&self.vectors, pairs),
            _ => true,
        }
    }

    fn begin_neighbours(&mut self) {
        if self.neighbours.is_none() {
            self.neighbours = Some(Neighbours::new(
                self.vectors.len(),
                &self.direction,
                HUBNESS_NEIGHBOURS,
            ));
        }
    }

    /// Ranks as measured for `model` (its vectors are this library's): the fusion of
    /// [`Fusion::for_model`] and the model's language axis, with the neighbours that fusion
    /// needs computed now if missing (true then: the corpus is worth saving again). What the
    /// CLI does; the page uses [`prepare_ranking`](Self::prepare_ranking).
    pub fn rank_for(&mut self, model: &crate::embed::ModelManifest) -> bool {
        self.prepare_ranking(model);
        self.finish_neighbours()
    }

    /// [`rank_for`](Self::rank_for) without computing missing neighbours: they are begun, to
    /// be computed a slice at a time by [`build_neighbours`](Self::build_neighbours).
    pub fn prepare_ranking(&mut self, model: &crate::embed::ModelManifest) {
        self.fusion = Fusion::for_model(model);
        self.set_language_direction(model.language_direction.clone());
        if self.fusion.languages == Languages::Hubness {
            self.begin_neighbours();
        }
    }

    /// Ranks chunks for a question (see [`Retriever::search`]).
    pub fn search(&self, search: &Search<'_>) -> Vec<Hit> {
        let superseded: Vec<bool> = self
            .standings()
            .iter()
            .map(Standing::is_superseded)
            .collect();
        Retriever {
            lexical: &self.lexical,
            dense: &self.dense,
            chunk_doc: &self.chunk_doc,
            chunk_lang: &self.chunk_lang,
            pending: &self.pending,
            fusion: self.fusion,
            vectors: &self.vectors,
            direction: &self.direction,
            // Part-built lists would favour the passages still waiting: none until complete.
            hubness: self
                .neighbours
                .as_ref()
                .filter(|n| n.is_complete())
                .map_or(&[], |n| n.hubness()),
            superseded: &superseded,
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
