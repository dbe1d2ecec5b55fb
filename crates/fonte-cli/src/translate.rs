//! The question translated into the library's other language by the endpoint before it is
//! searched (`fonte ask`, `fonte eval --translate endpoint`), as the page does when asking.

use fonte_core::answer::llm::Endpoint;
use fonte_core::answer::translate::{targets, translate, Translated, Translation};
use fonte_core::search::lang::Lang;

use crate::ask::kind;
use crate::http::Ureq;
use crate::words::language;

/// The translations of `query` into the languages of `present` it is not in, each embedded by
/// `embed`. A translation that fails or comes back unusable is skipped with a line on stderr:
/// the question is still searched as asked.
pub fn translations(
    endpoint: &Endpoint,
    query: &str,
    present: &[Lang],
    embed: &mut dyn FnMut(&str) -> Result<Vec<f32>, String>,
) -> Result<Vec<Translated>, String> {
    let mut out = Vec::new();
    for to in targets(query, present) {
        match pollster::block_on(translate(&Ureq::new(), endpoint, query, to)) {
            Ok(Some(translation)) => out.push(embedded(translation, embed)?),
            Ok(None) => eprintln!("translation into {} skipped: no usable reply", language(to)),
            Err(f) => eprintln!(
                "translation into {} skipped: error ({})",
                language(to),
                kind(&f)
            ),
        }
    }
    Ok(out)
}

/// `translation` with its query vector.
pub fn embedded(
    translation: Translation,
    embed: &mut dyn FnMut(&str) -> Result<Vec<f32>, String>,
) -> Result<Translated, String> {
    Ok(Translated {
        vector: embed(&translation.text)?,
        translation,
    })
}
