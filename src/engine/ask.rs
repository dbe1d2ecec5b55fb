//! Asking the library: the question's vector, the library's abstention threshold (the probe
//! questions embedded once per model, calibrated again whenever the documents change) and the
//! evidence-only prompt, all before any request; the answers kept per library.

use fonte_core::abstain::{Threshold, PROBES};
use fonte_core::ask::{calibrate, prepare, retrieval_query, AskParams, Prepared};
use fonte_core::llm::{Endpoint, Failure};
use fonte_core::prompt::Turn;
use fonte_core::translate::{targets, translate, Translated};
use leptos::prelude::*;

use super::Engine;
use crate::platform::idb::Saved;
use crate::platform::llm::Fetch;
use crate::AppResult;

/// What translating a question gave.
#[derive(Default)]
pub struct Translations {
    /// The usable translations, embedded.
    pub found: Vec<Translated>,
    /// Whether the user stopped it (nothing is to be sent until they retry).
    pub stopped: bool,
}

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

    /// `query` (the [`retrieval_query`]) translated by `endpoint` into each language of the
    /// library it is not in, with the translations' query vectors. A translation that fails or
    /// is unusable is left out (the question is searched as asked; the answer's own request
    /// reports the endpoint); one the user stopped ends the translating.
    pub async fn translations(
        &self,
        endpoint: &Endpoint,
        transport: &Fetch,
        query: &str,
    ) -> AppResult<Translations> {
        let present = self.library.corpus().languages();
        let mut out = Translations::default();
        for to in targets(query, &present) {
            match translate(transport, endpoint, query, to).await {
                Ok(Some(translation)) => {
                    let vector = self.embed_query(&translation.text).await?;
                    out.found.push(Translated {
                        translation,
                        vector,
                    });
                }
                Err(Failure::Aborted) => {
                    out.stopped = true;
                    break;
                }
                Ok(None) | Err(_) => {}
            }
        }
        Ok(out)
    }

    /// Whether a question asked after `turns` would be translated: the library holds passages
    /// in a language it is not in.
    pub fn would_translate(&self, question: &str, turns: &[Turn]) -> bool {
        let present = self.library.corpus().languages();
        !targets(&retrieval_query(turns, question), &present).is_empty()
    }

    /// Everything before the request: retrieval for `question` after `turns` (with its
    /// `translated` wordings, [`Self::translations`]), the threshold, and either a finished
    /// answer (abstained, or extractive when not `asking`) or the prompt to send. The corpus is
    /// borrowed only inside, never across a request.
    pub async fn prepare_ask(
        &self,
        question: &str,
        turns: &[Turn],
        translated: &[Translated],
        asking: bool,
        params: &AskParams,
    ) -> AppResult<Prepared> {
        let query = retrieval_query(turns, question);
        let vector = self.embed_query(&query).await?;
        let threshold = self.threshold().await?;
        // The same ranking as the search box.
        self.library.rank_for(&self.model().manifest);
        let corpus = self.library.corpus();
        Ok(prepare(
            &corpus, question, &vector, translated, turns, threshold, asking, params,
        ))
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
