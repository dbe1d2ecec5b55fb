//! The answers kept for this library, listed by conversation: each can be opened again (its
//! answers shown as they were, follow-ups continue it) or deleted.

use std::collections::BTreeMap;

use leptos::prelude::*;

use super::state::Exchange;
use super::Conversation;
use crate::components::library::EngineHandle;
use crate::i18n::*;
use crate::platform::idb::Saved;
use crate::state::{Loaded, Ui};

/// One kept conversation.
#[derive(Clone, PartialEq)]
struct Kept {
    id: String,
    first: String,
    answers: Vec<Saved>,
    at_ms: f64,
}

fn group(all: Vec<Saved>) -> Vec<Kept> {
    let mut by: BTreeMap<String, Kept> = BTreeMap::new();
    for s in all {
        let k = by.entry(s.conversation.clone()).or_insert_with(|| Kept {
            id: s.conversation.clone(),
            first: s.answer.question.clone(),
            answers: Vec::new(),
            at_ms: s.at_ms,
        });
        k.answers.push(s);
    }
    // Newest first.
    by.into_values().rev().collect()
}

fn date(ms: f64) -> String {
    let d = js_sys::Date::new(&ms.into());
    String::from(d.to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED))
}

/// The history list.
#[component]
pub fn History(engine: EngineHandle, ui: Ui, conversation: Conversation) -> impl IntoView {
    let i18n = use_i18n();
    let kept = RwSignal::new(Vec::<Kept>::new());
    let list = move || {
        leptos::task::spawn_local(async move {
            // The library says it is ready a moment before the page holds it.
            let e = loop {
                match engine.get_value() {
                    Some(e) => break e,
                    None => gloo::timers::future::TimeoutFuture::new(20).await,
                }
            };
            match e.history().await {
                Ok(all) => kept.set(group(all)),
                Err(err) => ui.notice.set(Some(err.into())),
            }
        });
    };
    Effect::new(move |_| {
        conversation.kept.track();
        // Cleared with the library.
        ui.generation.track();
        if matches!(ui.loaded.get(), Loaded::Ready { .. }) {
            list();
        }
    });
    let open = move |k: &Kept| {
        let exchanges = k
            .answers
            .iter()
            .map(|s| Exchange::finished(conversation.next_id(), s.answer.clone()))
            .collect();
        conversation.exchanges.set(exchanges);
        conversation.id.set(k.id.clone());
    };
    let forget = move |id: String| {
        let Some(e) = engine.get_value() else { return };
        leptos::task::spawn_local(async move {
            match e.forget_conversation(&id).await {
                Ok(()) => {
                    if conversation.id.get_untracked() == id {
                        conversation.exchanges.set(Vec::new());
                        conversation.id.set(String::new());
                    }
                    list();
                }
                Err(err) => ui.notice.set(Some(err.into())),
            }
        });
    };
    view! {
        <Show when=move || !kept.get().is_empty()>
            <details class="history" data-testid="history">
                <summary>{t!(i18n, history_title)} " (" {move || kept.get().len()} ")"</summary>
                <ul>
                    <For each=move || kept.get() key=|k| (k.id.clone(), k.answers.len()) let:k>
                        <li data-testid="history-item">
                            <button type="button" class="link" data-testid="history-open" on:click={
                                let k = k.clone();
                                move |_| open(&k)
                            }>
                                {k.first.clone()}
                            </button>
                            " "
                            <span class="when">{date(k.at_ms)} {format!(" · {}", k.answers.len())}</span>
                            " "
                            <button type="button" data-testid="history-delete" on:click={
                                let id = k.id.clone();
                                move |_| forget(id.clone())
                            }>
                                {t!(i18n, delete)}
                            </button>
                        </li>
                    </For>
                </ul>
            </details>
        </Show>
    }
}
