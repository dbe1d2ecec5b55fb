//! What the core's asking pipeline needs of the page's library ([`AskServices`]): the
//! question's vector, the library's abstention threshold (the probe questions embedded once per
//! model, calibrated again whenever the documents change) and the corpus, ranked as the search
//! box ranks; and the answers kept per library.

use fonte_core::answer::abstain::{Threshold, PROBES};
use fonte_core::answer::ask::{calibrate, AskServices};
use fonte_core::search::corpus::Corpus;
use leptos::prelude::*;

use super::Engine;
use crate::platform::idb::Saved;
use crate::{AppError, AppResult};

/// The probes' query vectors for one model, and the threshold they gave for one generation
/// of the library.
#[derive(Default)]
pub struct Calibration {
    probes: Option<(String, Vec<Vec<f32>>)>,
    threshold: Option<(String, u64, Option<Threshold>)>,
}

impl Engine {
    /// The query vector of `text` (the library's model, as a query).
    pub async fn embed_query(&self, text: &str) -> AppResult<Vec<f32>> {
        let service = self.service();
        let mut slot = service.embedder().await?;
        let embedder = slot.as_mut().expect("loaded by embedder()");
        Ok(embedder.embed_query(text).await?)
    }

    /// The library's threshold; `None` while it is too small to tell.
    async fn threshold(&self) -> AppResult<Option<Threshold>> {
        let model = self.model().manifest.id;
        let generation = self.ui.generation.get_untracked();
        if let Some((m, g, t)) = &self.calibration.borrow().threshold {
            if *m == model && *g == generation {
                return Ok(*t);
            }
        }
        let known = matches!(&self.calibration.borrow().probes, Some((m, _)) if *m == model);
        if !known {
            // 32 short queries, once per model and visit (about a second on one core).
            let mut vectors = Vec::with_capacity(PROBES.len());
            for probe in PROBES {
                vectors.push(self.embed_query(probe).await?);
            }
            self.calibration.borrow_mut().probes = Some((model.clone(), vectors));
        }
        let threshold = {
            let calibration = self.calibration.borrow();
            let (_, vectors) = calibration.probes.as_ref().expect("embedded above");
            calibrate(&self.library.corpus(), vectors)
        };
        self.calibration.borrow_mut().threshold = Some((model, generation, threshold));
        Ok(threshold)
    }

    /// The answers kept for this library, oldest first.
    pub async fn history(&self) -> AppResult<Vec<Saved>> {
        self.library.store().history().await
    }

    /// Keeps an answer.
    pub async fn keep(&self, saved: &Saved) -> AppResult<()> {
        self.library.store().keep(saved).await
    }

    /// Forgets the answers of conversation `conversation`.
    pub async fn forget_conversation(&self, conversation: &str) -> AppResult<()> {
        self.library.store().forget_conversation(conversation).await
    }
}

impl AskServices for Engine {
    type Error = AppError;
    async fn embed_query(&self, text: &str) -> AppResult<Vec<f32>> {
        Engine::embed_query(self, text).await
    }
    async fn threshold(&self) -> AppResult<Option<Threshold>> {
        Engine::threshold(self).await
    }
    fn with_corpus<R>(&self, f: impl FnOnce(&Corpus) -> R) -> R {
        // The same ranking as the search box.
        self.library.rank_for(&self.model().manifest);
        f(&self.library.corpus())
    }
}
