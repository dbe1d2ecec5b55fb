//! The question translated into the other language of a mixed library by the endpoint the user
//! configured, so that its rankings join the question's own ([`crate::search::retrieve::Wording`]): a
//! bilingual model still ranks same-language passages above the other language's answer, and
//! BM25 cannot match words across languages (docs/QUALITY.md §4, "A mixed library").
//!
//! Only when asking (the question goes to that endpoint anyway: nothing new leaves the page),
//! and only when the library holds passages in a language the question is not in. A failed or
//! unusable translation is skipped: asking never depends on it.

use serde::{Deserialize, Serialize};

pub mod local;
pub mod protocol;

use crate::answer::llm::{stream_answer, Endpoint, Failure, Transport};
use crate::answer::prompt::{Message, Prompt, Role};
use crate::search::lang::Lang;
use crate::text::fold;

/// Most tokens a translation may take: a question, not an essay (a model that starts
/// answering instead is cut short).
pub const MAX_TOKENS: u32 = 160;

/// A translation of the question, as kept with the answer (the page shows what was searched).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Translation {
    /// The language it is in.
    pub lang: Lang,
    /// The translated question.
    pub text: String,
}

/// A translation with its query vector, for retrieval.
#[derive(Debug, Clone, PartialEq)]
pub struct Translated {
    /// The translation.
    pub translation: Translation,
    /// Its embedding as a query (the library's model).
    pub vector: Vec<f32>,
}

impl Translated {
    /// As another wording of the question to search with.
    pub fn wording(&self) -> crate::search::retrieve::Wording<'_> {
        crate::search::retrieve::Wording {
            text: &self.translation.text,
            vector: Some(&self.vector),
        }
    }
}

/// The languages to translate `question` into: those of `present` (the library's passages)
/// that it is not in. None when its language cannot be told (a command, a formula: the words
/// are the same in both).
pub fn targets(question: &str, present: &[Lang]) -> Vec<Lang> {
    match Lang::detect(question) {
        Some(asked) => present.iter().copied().filter(|l| *l != asked).collect(),
        None => Vec::new(),
    }
}

/// The language's name in the instructions (written in English: the language every model
/// follows instructions in best).
fn name(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "English",
        Lang::Pt => "Brazilian Portuguese",
    }
}

/// One worked example per direction: small models copy a shown format far more faithfully
/// than they follow a described one.
fn example(to: Lang) -> (&'static str, &'static str) {
    match to {
        Lang::En => (
            "Como faço para remover um pacote sem apagar os arquivos de configuração?",
            "How do I remove a package without deleting its configuration files?",
        ),
        Lang::Pt => (
            "How do I remove a package without deleting its configuration files?",
            "Como faço para remover um pacote sem apagar os arquivos de configuração?",
        ),
    }
}

/// The request translating `question` into `to`.
pub fn prompt(question: &str, to: Lang) -> Prompt {
    let (shown, translated) = example(to);
    let message = |role, content: &str| Message {
        role,
        content: content.to_string(),
    };
    Prompt {
        system: format!(
            "Translate the user's search question into {}. Keep names, commands, numbers and \
             technical terms as they are. Reply with the translated question only: no quotes, \
             no notes, no answer.",
            name(to)
        ),
        messages: vec![
            message(Role::User, shown),
            message(Role::Assistant, translated),
            message(Role::User, question.trim()),
        ],
        sources: Vec::new(),
        lang: to,
    }
}

/// Labels a model may put before its translation.
const LABELS: [&str; 8] = [
    "translation",
    "translated question",
    "traducao",
    "pergunta traduzida",
    "english",
    "portuguese",
    "brazilian portuguese",
    "portugues",
];

/// The translation in a model's `reply` to the request for `question` in `to`: its first line
/// without a label or quotes; `None` when nothing usable came back (empty, the question
/// itself, the worked example's translation repeated, or far longer than a translation of the
/// question can be: the model answered instead).
pub fn clean(reply: &str, question: &str, to: Lang) -> Option<String> {
    let mut line = reply.lines().map(str::trim).find(|l| !l.is_empty())?;
    if let Some((label, rest)) = line.split_once(':') {
        let label = fold(label.trim().trim_matches(|c| c == '*' || c == '#'));
        if LABELS.contains(&label.as_str()) && !rest.trim().is_empty() {
            line = rest.trim();
        }
    }
    let quotes: &[char] = &['"', '\'', '“', '”', '«', '»', '`', '*'];
    let text = line.trim_matches(quotes).trim();
    let long = text.chars().count() > 3 * question.chars().count() + 40;
    let same = fold(text) == fold(question.trim());
    let parroted =
        fold(text) == fold(example(to).1) && fold(question.trim()) != fold(example(to).0);
    (!text.is_empty() && !long && !same && !parroted).then(|| text.to_string())
}

/// The translation a local model gave for `question`: trimmed; `None` when empty, the question
/// itself, or far longer than a translation of it can be (a decoder that ran on).
pub fn clean_local(out: &str, question: &str) -> Option<String> {
    let text = out.trim();
    let long = text.chars().count() > 3 * question.chars().count() + 40;
    let same = fold(text) == fold(question.trim());
    (!text.is_empty() && !long && !same).then(|| text.to_string())
}

/// Asks `endpoint` for `question` in `to` ([`prompt`], at temperature 0, [`MAX_TOKENS`] at
/// most); `Ok(None)` when the reply holds no usable translation ([`clean`]).
pub async fn translate<T: Transport>(
    transport: &T,
    endpoint: &Endpoint,
    question: &str,
    to: Lang,
) -> Result<Option<Translation>, Failure> {
    let endpoint = Endpoint {
        temperature: 0.0,
        max_tokens: endpoint.max_tokens.min(MAX_TOKENS),
        ..endpoint.clone()
    };
    let reply = stream_answer(transport, &endpoint, &prompt(question, to), &mut |_| {}).await?;
    Ok(clean(&reply, question, to).map(|text| Translation { lang: to, text }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::llm::fake::{Reply, Scripted};
    use crate::answer::llm::Api;

    #[test]
    fn translates_only_into_the_languages_the_question_is_not_in() {
        let both = [Lang::En, Lang::Pt];
        assert_eq!(targets("Como instalo o pacote?", &both), [Lang::En]);
        assert_eq!(targets("How do I install the package?", &both), [Lang::Pt]);
        assert!(targets("How do I install the package?", &[Lang::En]).is_empty());
        assert!(
            targets("apt-get install file-rc", &both).is_empty(),
            "no language"
        );
    }

    #[test]
    fn the_reply_is_cleaned_to_the_translation_or_dropped() {
        let q = "Como instalo o pacote?";
        let got = |reply: &str| clean(reply, q, Lang::En);
        assert_eq!(
            got("How do I install the package?").as_deref(),
            Some("How do I install the package?")
        );
        assert_eq!(
            got("Translation: \"How do I install the package?\"\n\nNote: literal.").as_deref(),
            Some("How do I install the package?")
        );
        assert_eq!(
            got("\n  “How do I install it?”  ").as_deref(),
            Some("How do I install it?")
        );
        assert_eq!(
            got("Error: not found").as_deref(),
            Some("Error: not found"),
            "not a label"
        );
        assert_eq!(got(""), None);
        assert_eq!(got(example(Lang::En).1), None, "the example repeated");
        assert_eq!(got("Como instalo o pacote?"), None, "the question back");
        assert_eq!(
            got(&"To install the package, run apt-get install. ".repeat(5)),
            None,
            "an answer"
        );
    }

    #[test]
    fn the_request_shows_an_example_and_asks_for_the_question_only() {
        let p = prompt("Como instalo o pacote?", Lang::En);
        assert!(p.system.contains("into English"), "{}", p.system);
        assert_eq!(p.messages.len(), 3);
        assert_eq!(p.messages[1].role, Role::Assistant);
        assert_eq!(p.messages[2].content, "Como instalo o pacote?");
        assert!(p.sources.is_empty());
    }

    fn endpoint() -> Endpoint {
        Endpoint {
            api: Api::OpenAi,
            base_url: "http://127.0.0.1:1/v1".into(),
            model: "m".into(),
            api_key: None,
            temperature: 0.7,
            max_tokens: 1024,
        }
    }

    #[test]
    fn a_translation_is_asked_for_briefly_at_temperature_zero() {
        let delta = serde_json::json!({"choices": [{"delta": {"content": "How do I install the package?"}}]});
        let body = format!("data: {delta}\n\ndata: [DONE]\n\n");
        let t = Scripted::new(vec![Ok(Reply::stream(&body, 7))]);
        let got = pollster::block_on(translate(
            &t,
            &endpoint(),
            "Como instalo o pacote?",
            Lang::En,
        ));
        assert_eq!(
            got,
            Ok(Some(Translation {
                lang: Lang::En,
                text: "How do I install the package?".into()
            }))
        );
        let sent: serde_json::Value = serde_json::from_str(&t.sent.borrow()[0].body).unwrap();
        assert_eq!(sent["temperature"], 0.0);
        assert_eq!(sent["max_tokens"], MAX_TOKENS);
        assert_eq!(sent["messages"][0]["role"], "system");
    }
}
