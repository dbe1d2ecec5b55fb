//! Each question's translations for `fonte eval --translate`, through the asking pipeline's
//! own translating.

use std::cell::RefCell;
use std::collections::HashMap;

use fonte_core::answer::ask::{self, AskEvent};
use fonte_core::answer::translate::{targets, Translated, Translation};
use fonte_core::search::corpus::Corpus;

use super::cases::Case;
use super::TranslateArg;
use crate::ask::{kind, CorpusLibrary};
use crate::http::Ureq;
use crate::words::language;

/// Each question's translations into the languages of the library it is not in, as the page
/// asks for them ([`targets`]): by the endpoint, by the models on this machine, or the set's own
/// other wording.
pub(super) fn translations<'a>(
    how: TranslateArg,
    corpus: &Corpus,
    all: &[Case<'a>],
    endpoint: &crate::ask::EndpointArgs,
    embedder: &mut fonte_core::embed::Embedder<fonte_core::embed::native::OrtEncoder>,
) -> Result<HashMap<&'a str, Vec<Translated>>, String> {
    let endpoint = match how {
        TranslateArg::Endpoint => Some(
            endpoint
                .endpoint()
                .ok_or("--translate endpoint needs --endpoint")?,
        ),
        TranslateArg::Here | TranslateArg::Reference => None,
    };
    let translator = match how {
        TranslateArg::Here => Some(crate::model::translator(std::path::Path::new("models"))?),
        _ => None,
    };
    let present = corpus.languages();
    let embed = RefCell::new(|q: &str| {
        pollster::block_on(embedder.embed_query(q)).map_err(|e| e.to_string())
    });
    // The pipeline's own translating, on this corpus (no abstention: the ranking is measured).
    let library = CorpusLibrary {
        corpus,
        embed: &embed,
        threshold: None,
        translator: translator.as_ref(),
    };
    let transport = Ureq::new();
    let mut out: HashMap<&str, Vec<Translated>> = HashMap::new();
    let (mut asked, mut got) = (0, 0);
    for case in all {
        if out.contains_key(case.question) {
            continue;
        }
        let translated = match &endpoint {
            None if how == TranslateArg::Here => {
                let question = case.question;
                pollster::block_on(ask::here_translations(&library, question, &mut |_| {}))?.found
            }
            Some(e) => {
                let mut on = |event: AskEvent<'_>| {
                    if let AskEvent::TranslationSkipped(to, failure) = event {
                        let why = failure.map_or("no usable reply", kind);
                        eprintln!("translation into {} skipped: {why}", language(to));
                    }
                };
                let question = case.question;
                pollster::block_on(ask::translations(
                    &library,
                    (e, &transport),
                    question,
                    &mut on,
                ))?
                .found
            }
            None => targets(case.question, &present)
                .into_iter()
                .map(|lang| {
                    Ok(Translated {
                        vector: (embed.borrow_mut())(case.other)?,
                        translation: Translation {
                            lang,
                            text: case.other.to_string(),
                        },
                    })
                })
                .collect::<Result<_, String>>()?,
        };
        asked += targets(case.question, &present).len();
        got += translated.len();
        out.insert(case.question, translated);
    }
    eprintln!("translations: {got} of {asked} asked for");
    Ok(out)
}
