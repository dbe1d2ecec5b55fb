//! What the ask view holds: the endpoint settings (the key only in memory unless the user asks
//! to remember it) and the exchanges of the conversation, each with its own signals so a
//! streamed answer re-renders only itself.

use std::collections::BTreeMap;

use fonte_core::answer::ask::{Answer, AskParams, Prepared, TranslateWith};
use fonte_core::answer::llm::preset::{preset, Key};
use fonte_core::answer::llm::{Endpoint, Failure};
use fonte_core::answer::prompt::{Lang, Source};
use gloo::storage::{LocalStorage, Storage};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::AppError;

/// The endpoint settings kept on this device (never a key: see [`KEY_ITEM`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EndpointSettings {
    /// The preset picked ([`fonte_core::answer::llm::preset::PRESETS`]).
    pub preset: String,
    /// Base URL.
    pub base_url: String,
    /// Model name.
    pub model: String,
    /// Sampling temperature.
    pub temperature: f32,
    /// Most tokens an answer may take.
    pub max_tokens: u32,
    /// Characters of passages a prompt may carry.
    pub budget_chars: usize,
    /// What translates a question into the library's other language, so that it is also
    /// searched in that wording (`fonte_core::answer::translate`). A new name for a new
    /// choice: the yes/no kept by earlier versions (`translate`, which meant "by the
    /// endpoint") is ignored, and the default sends nothing.
    pub translation: TranslateWith,
}

impl Default for EndpointSettings {
    fn default() -> Self {
        let p = preset("llamacpp");
        Self {
            preset: p.id.into(),
            base_url: String::new(),
            model: String::new(),
            // Low: an answer from the sources, not a creative one.
            temperature: 0.2,
            max_tokens: 512,
            budget_chars: AskParams::default().budget_chars,
            // On this device: nothing is sent, and without a translation an answer in the
            // library's other language is often not found (docs/QUALITY.md §4).
            translation: TranslateWith::Here,
        }
    }
}

const SETTINGS_ITEM: &str = "fonte.endpoint";
/// Where keys are kept, by endpoint origin, only those the user asked to remember on this
/// device. Any page of this origin can read them (on a shared origin such as
/// `user.github.io`, every site under it): docs/ENDPOINTS.md says so where the box is ticked.
pub const KEY_ITEM: &str = "fonte.endpoint.keys";
/// Where one key was kept before keys were bound to their endpoint: which endpoint it was
/// typed for is unknown, so it is removed rather than sent anywhere.
const UNBOUND_KEY_ITEM: &str = "fonte.endpoint.key";

impl EndpointSettings {
    /// The settings kept on this device, else the defaults.
    pub fn load() -> Self {
        LocalStorage::get(SETTINGS_ITEM).unwrap_or_default()
    }

    /// Keeps them (storage refused, e.g. in a private window: they last for this visit).
    pub fn save(&self) {
        let _ = LocalStorage::set(SETTINGS_ITEM, self);
    }

    /// The endpoint to ask, once a base URL and a model are set; the answers are extractive
    /// until then.
    pub fn endpoint(&self, key: &str) -> Option<Endpoint> {
        let base = self.base_url.trim();
        let model = self.model.trim();
        if base.is_empty() || model.is_empty() {
            return None;
        }
        Some(Endpoint {
            api: preset(&self.preset).api,
            base_url: base.to_string(),
            model: model.to_string(),
            api_key: Some(key.trim().to_string()).filter(|k| !k.is_empty()),
            temperature: self.temperature,
            max_tokens: self.max_tokens,
        })
    }

    /// Whether the preset needs a key and none is given.
    pub fn lacks_key(&self, key: &str) -> bool {
        preset(&self.preset).key == Key::Required && key.trim().is_empty()
    }
}

/// The origin (scheme, host and port) of `base_url` as the browser parses it: what a key is
/// bound to. `None` for an address that is not a URL.
pub fn origin_of(base_url: &str) -> Option<String> {
    let url = web_sys::Url::new(base_url.trim()).ok()?;
    let origin = url.origin();
    (origin != "null").then_some(origin)
}

/// Whether `base_url` is plain `http:` to another machine (questions, passages and key would
/// cross a network unencrypted); loopback addresses are this machine.
pub fn plain_http_elsewhere(base_url: &str) -> bool {
    let Ok(url) = web_sys::Url::new(base_url.trim()) else {
        return false;
    };
    let host = url.hostname();
    let local = host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "[::1]";
    url.protocol() == "http:" && !local
}

/// The keys remembered on this device, by endpoint origin.
pub fn remembered_keys() -> BTreeMap<String, String> {
    LocalStorage::delete(UNBOUND_KEY_ITEM);
    LocalStorage::get(KEY_ITEM).unwrap_or_default()
}

/// Remembers the key of the endpoint at `origin` on this device, or forgets it.
pub fn remember_key(origin: &str, key: Option<&str>) {
    let mut keys = remembered_keys();
    match key {
        Some(k) => {
            keys.insert(origin.to_string(), k.to_string());
        }
        None => {
            keys.remove(origin);
        }
    }
    if keys.is_empty() {
        LocalStorage::delete(KEY_ITEM);
    } else {
        let _ = LocalStorage::set(KEY_ITEM, keys);
    }
}

/// Where an exchange is.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    /// Asking the endpoint for the question in the library's other language.
    Translating,
    /// Embedding the question and finding the evidence.
    Retrieving,
    /// The request is sent; no words yet.
    Waiting,
    /// Words are arriving.
    Streaming,
    /// Finished: see the answer.
    Done,
    /// The endpoint failed (or was stopped); the question and evidence are kept for a retry.
    Failed(Failure),
    /// The question could not be asked: no endpoint set, or the page could not embed or search.
    Broken(Broken),
}

/// Why a question could not be asked (worded where it is shown).
#[derive(Debug, Clone, PartialEq)]
pub enum Broken {
    /// Retry with no endpoint set.
    EndpointIncomplete,
    /// The page could not embed or search.
    Failed(AppError),
}

/// One question and its answer, as shown.
#[derive(Clone, Copy)]
pub struct Exchange {
    /// Unique in the page.
    pub id: u64,
    /// The question.
    pub question: StoredValue<String>,
    /// The sources, once chosen.
    pub sources: RwSignal<Vec<Source>>,
    /// The model's text so far.
    pub text: RwSignal<String>,
    /// Where it is.
    pub phase: RwSignal<Phase>,
    /// The finished answer.
    pub answer: RwSignal<Option<Answer>>,
    /// What a retry resends: the prepared answer and prompt.
    pub prepared: StoredValue<Option<Prepared>>,
    /// The model it was sent to, for the waiting line.
    pub model: StoredValue<String>,
    /// How far the model has read the prompt (tokens read, of), where it says.
    pub reading: RwSignal<Option<(u32, u32)>>,
    /// Whether that model runs in this page (nothing was sent).
    pub in_page: StoredValue<bool>,
    /// The sources shown are the word matches found while the query model loads.
    pub word_matches: RwSignal<bool>,
    /// Whether older versions were searched too (their citations then valid).
    pub all_versions: StoredValue<bool>,
}

impl Exchange {
    /// A new exchange for `question`.
    pub fn new(id: u64, question: String) -> Self {
        Self {
            id,
            question: StoredValue::new(question),
            sources: RwSignal::new(Vec::new()),
            text: RwSignal::new(String::new()),
            phase: RwSignal::new(Phase::Retrieving),
            answer: RwSignal::new(None),
            prepared: StoredValue::new(None),
            model: StoredValue::new(String::new()),
            reading: RwSignal::new(None),
            in_page: StoredValue::new(false),
            word_matches: RwSignal::new(false),
            all_versions: StoredValue::new(false),
        }
    }

    /// A finished exchange (from the history).
    pub fn finished(id: u64, answer: Answer) -> Self {
        let e = Self::new(id, answer.question.clone());
        e.sources.set(answer.sources.clone());
        e.text.set(answer.text.clone());
        e.phase.set(Phase::Done);
        e.answer.set(Some(answer));
        e
    }
}

/// The interface language as the prompt's fallback.
pub fn lang_of(locale: crate::i18n::Locale) -> Lang {
    match locale {
        crate::i18n::Locale::pt_BR => Lang::Pt,
        _ => Lang::En,
    }
}
