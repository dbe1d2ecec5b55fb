//! The one asking pipeline, driven by the page and by `fonte ask`: embed the question, decide
//! abstention on it as typed (its vector is cross-lingual already), translate only a question
//! that passes, retrieve in every wording, then stream the answer and check its citations.
//! Retry resends a kept [`Prepared`] through [`reply`].
//!
//! "Abstained, nothing was sent" holds by construction: [`prepare_question`] makes no request
//! before the question's own evidence has passed the library's threshold. A question about the
//! library itself is answered from its records before anything else: no search, no request.

use crate::answer::abstain::Threshold;
use crate::answer::llm::{stream_answer_with, Endpoint, Failure, Streamed, Transport};
use crate::answer::translate::{targets, translate, Translated, Translation};
use crate::search::corpus::Corpus;

use super::steps::{finish, judge, prepare, retrieval_query, sources, Prepared};
use super::{Answer, AskEvent, Outcome, Request, TranslateWith};
use crate::answer::library::{answer as library_answer, recognise};
use crate::answer::prompt::Lang;

/// What asking needs of the library it asks; the page's engine and the CLI implement it.
///
/// Browser futures are not `Send`, so neither are this trait's.
#[allow(async_fn_in_trait)]
pub trait AskServices {
    /// The front end's error (a failed embedding, a store that cannot be read).
    type Error;
    /// The query vector of `text`, by the library's model.
    async fn embed_query(&self, text: &str) -> Result<Vec<f32>, Self::Error>;
    /// The library's abstention threshold ([`super::calibrate`]); `None` while it is too small
    /// to tell.
    async fn threshold(&self) -> Result<Option<Threshold>, Self::Error>;
    /// Runs `f` on the library's corpus, ranked as its search box ranks; the borrow never
    /// spans an await, so documents may be added while a question is asked.
    fn with_corpus<R>(&self, f: impl FnOnce(&Corpus) -> R) -> R;
    /// Whether the question can be embedded without loading the model first; while it
    /// loads, the passages holding the question's words are shown ([`AskEvent::WordMatches`]).
    fn query_ready(&self) -> bool {
        true
    }
    /// `question` in `to` by the translation models on this machine, when there are; `None`
    /// when there are none or nothing usable came out.
    async fn translate_here(
        &self,
        _question: &str,
        _to: Lang,
    ) -> Result<Option<Translation>, Self::Error> {
        Ok(None)
    }
}

/// A question made ready for the answer's request.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// The answer already finished (abstained, extractive) or the prompt to send.
    pub prepared: Prepared,
    /// The person stopped the translation: nothing more is sent until they retry (the
    /// evidence found without it is kept).
    pub stopped: bool,
}

/// Everything before the answer's request: the question's vector, the abstention decision on
/// it, its translations (only when it passed and `request.translate` names an available
/// endpoint), the evidence and the prompt.
pub async fn prepare_question<X: AskServices, T: Transport>(
    services: &X,
    request: &Request<'_>,
    endpoint: Option<(&Endpoint, &T)>,
    on: &mut dyn FnMut(AskEvent<'_>),
) -> Result<Asked, X::Error> {
    if let Some(question) = recognise(request.question) {
        let library = services.with_corpus(|c| library_answer(&question, c));
        let answer = Answer {
            question: request.question.to_string(),
            lang: Lang::of(request.question, request.params.fallback),
            outcome: Outcome::Library,
            sources: Vec::new(),
            text: String::new(),
            sentences: Vec::new(),
            extracts: Vec::new(),
            evidence: None,
            translations: Vec::new(),
            library: Some(library),
            all_versions: request.params.all_versions,
            conflicts: Vec::new(),
        };
        on(AskEvent::Sources(&[]));
        return Ok(Asked {
            prepared: Prepared::Done(answer),
            stopped: false,
        });
    }
    let query = retrieval_query(request.turns, request.question);
    if !services.query_ready() {
        // Local and provisional: nothing is decided or sent on them.
        let words = services.with_corpus(|c| sources(c, &query, None, &[], &request.params));
        on(AskEvent::WordMatches(&words));
    }
    let vector = services.embed_query(&query).await?;
    let threshold = services.threshold().await?;
    let abstains = services
        .with_corpus(|c| judge(c, &vector, threshold))
        .is_some_and(|(e, t)| t.abstains(&e));
    let Translations {
        found: translated,
        stopped,
    } = match (request.translate, endpoint) {
        _ if abstains => Translations::default(),
        (TranslateWith::Endpoint, Some(endpoint)) => {
            translations(services, endpoint, &query, on).await?
        }
        (TranslateWith::Here, _) => here_translations(services, &query, on).await?,
        _ => Translations::default(),
    };
    on(AskEvent::Retrieving);
    let prepared = services.with_corpus(|c| {
        prepare(
            c,
            request,
            &vector,
            &translated,
            threshold,
            endpoint.is_some(),
        )
    });
    on(AskEvent::Sources(prepared.sources()));
    Ok(Asked { prepared, stopped })
}

/// What translating a question gave.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Translations {
    /// The usable translations, embedded as queries.
    pub found: Vec<Translated>,
    /// The person stopped it: nothing more is to be sent until they retry.
    pub stopped: bool,
}

/// `query` translated by `endpoint` into each language of the library it is not in, each
/// embedded as a query. A translation that fails or is unusable is skipped (the question is
/// searched as asked; [`AskEvent::TranslationSkipped`] says why); one the person stopped ends
/// the translating. The pipeline calls this only for a question that passed abstention;
/// `fonte eval --translate endpoint` calls it to measure the ranking users get.
pub async fn translations<X: AskServices, T: Transport>(
    services: &X,
    (endpoint, transport): (&Endpoint, &T),
    query: &str,
    on: &mut dyn FnMut(AskEvent<'_>),
) -> Result<Translations, X::Error> {
    let mut out = Translations::default();
    let present = services.with_corpus(Corpus::languages);
    for to in targets(query, &present) {
        on(AskEvent::Translating(to));
        match translate(transport, endpoint, query, to).await {
            Ok(Some(translation)) => {
                on(AskEvent::Translated(&translation));
                out.found.push(Translated {
                    vector: services.embed_query(&translation.text).await?,
                    translation,
                });
            }
            Ok(None) => on(AskEvent::TranslationSkipped(to, None)),
            Err(Failure::Aborted) => {
                out.stopped = true;
                break;
            }
            Err(f) => on(AskEvent::TranslationSkipped(to, Some(&f))),
        }
    }
    Ok(out)
}

/// `query` translated on this machine ([`AskServices::translate_here`]) into each language of
/// the library it is not in, each embedded as a query: nothing is sent. `fonte eval --translate
/// here` calls it to measure the ranking users get.
pub async fn here_translations<X: AskServices>(
    services: &X,
    query: &str,
    on: &mut dyn FnMut(AskEvent<'_>),
) -> Result<Translations, X::Error> {
    let mut out = Translations::default();
    let present = services.with_corpus(Corpus::languages);
    for to in targets(query, &present) {
        on(AskEvent::Translating(to));
        match services.translate_here(query, to).await? {
            Some(translation) => {
                on(AskEvent::Translated(&translation));
                out.found.push(Translated {
                    vector: services.embed_query(&translation.text).await?,
                    translation,
                });
            }
            None => on(AskEvent::TranslationSkipped(to, None)),
        }
    }
    Ok(out)
}

/// The answer to a prepared question: finished already, or the model's reply to its prompt
/// streamed (each piece to `on`) and its citations checked. A failure of the endpoint comes
/// back with nothing lost: the caller keeps `prepared` to retry.
pub async fn reply<T: Transport>(
    prepared: Prepared,
    endpoint: Option<(&Endpoint, &T)>,
    on: &mut dyn FnMut(AskEvent<'_>),
) -> Result<Answer, Failure> {
    match (prepared, endpoint) {
        (Prepared::Done(answer), _) => Ok(answer),
        (Prepared::Ask { answer, prompt }, Some((endpoint, transport))) => {
            let text = stream_answer_with(transport, endpoint, &prompt, &mut |s| match s {
                Streamed::Text(t) => on(AskEvent::Text(t)),
                Streamed::Reading { processed, total } => {
                    on(AskEvent::Reading { processed, total })
                }
            })
            .await?;
            Ok(finish(answer, prompt, text))
        }
        (Prepared::Ask { answer, .. }, None) => Ok(answer),
    }
}

/// How asking ended short of an answer.
#[derive(Debug)]
pub enum AskError<E> {
    /// The front end's services failed (embedding, store).
    Services(E),
    /// The endpoint failed (or the person stopped it).
    Endpoint(Failure),
}

/// [`prepare_question`] then [`reply`]: the whole pipeline, for a front end that does not
/// retry (`fonte ask`).
pub async fn ask<X: AskServices, T: Transport>(
    services: &X,
    request: &Request<'_>,
    endpoint: Option<(&Endpoint, &T)>,
    on: &mut dyn FnMut(AskEvent<'_>),
) -> Result<Answer, AskError<X::Error>> {
    let asked = prepare_question(services, request, endpoint, on)
        .await
        .map_err(AskError::Services)?;
    if asked.stopped {
        return Err(AskError::Endpoint(Failure::Aborted));
    }
    reply(asked.prepared, endpoint, on)
        .await
        .map_err(AskError::Endpoint)
}
