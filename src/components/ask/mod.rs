//! Asking: the question box first, then the conversation's answers as they stream in, with
//! stop (the request is aborted), retry (the kept question and evidence resent with the
//! settings as they are now: a fixed key or model is used) and follow-ups. The endpoint
//! settings are in [`endpoint`], one answer's view in [`answer`], the kept answers in
//! [`history`].

pub mod answer;
mod browser_model;
pub mod endpoint;
pub mod history;
mod library;
pub mod state;
mod words;

use std::rc::Rc;

use fonte_core::answer::ask::{
    prepare_question, reply, Answer, AskEvent, AskParams, Outcome, Prepared, Request,
};
use fonte_core::answer::llm::preset::IN_PAGE_BASE_URL;
use fonte_core::answer::llm::Failure;
use fonte_core::answer::prompt::Turn;
use leptos::prelude::*;

use self::answer::ExchangeView;
use self::endpoint::EndpointUi;
use self::history::History;
use self::state::{lang_of, Broken, Exchange, Phase};
use crate::components::library::EngineHandle;
use crate::components::source::Passage;
use crate::i18n::*;
use crate::platform::idb::Saved;
use crate::platform::llm::Fetch;
use crate::state::Ui;

/// Earlier answers a follow-up carries (the prompt's budget is for the evidence).
const TURNS: usize = 3;

/// The conversation on screen.
#[derive(Clone, Copy)]
pub struct Conversation {
    /// Its id (the key of its first answer), empty before the first question.
    pub id: RwSignal<String>,
    /// Its exchanges, in order.
    pub exchanges: RwSignal<Vec<Exchange>>,
    /// Bumped when an answer is kept, so the history is listed again.
    pub kept: RwSignal<u64>,
    next: StoredValue<u64>,
}

impl Conversation {
    fn new() -> Self {
        Self {
            id: RwSignal::new(String::new()),
            exchanges: RwSignal::new(Vec::new()),
            kept: RwSignal::new(0),
            next: StoredValue::new(1),
        }
    }

    /// A fresh id for an exchange.
    pub fn next_id(&self) -> u64 {
        let n = self.next.get_value();
        self.next.set_value(n + 1);
        n
    }

    /// The finished answers before `id` that a follow-up carries.
    fn turns_before(&self, id: u64) -> Vec<Turn> {
        let answers: Vec<Answer> = self
            .exchanges
            .get_untracked()
            .iter()
            .filter(|e| e.id < id)
            .filter_map(|e| e.answer.get_untracked())
            .filter(|a| a.outcome == Outcome::Answered)
            .collect();
        answers[answers.len().saturating_sub(TURNS)..]
            .iter()
            .map(|a| Turn {
                question: a.question.clone(),
                answer: a.text.clone(),
            })
            .collect()
    }
}

/// The asking view.
#[component]
pub fn Ask(
    ui: Ui,
    engine: EngineHandle,
    endpoint: EndpointUi,
    selected: RwSignal<Option<Passage>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let question = RwSignal::new(String::new());
    let conversation = Conversation::new();
    let busy = RwSignal::new(false);
    let fetch = StoredValue::new_local(Rc::new(Fetch::new()));
    // Something to ask about.
    let ready = move || ui.rows.get().iter().any(|r| r.status.is_stored());

    // Keeps a finished answer and shows it.
    let done = move |ex: Exchange, answer: Answer| {
        ex.answer.set(Some(answer.clone()));
        ex.phase.set(Phase::Done);
        busy.set(false);
        let at_ms = js_sys::Date::now();
        let id = Saved::key(at_ms, ex.id);
        if conversation.id.get_untracked().is_empty() {
            conversation.id.set(id.clone());
        }
        let saved = Saved {
            id,
            conversation: conversation.id.get_untracked(),
            at_ms,
            answer,
        };
        if let Some(e) = engine.get_value() {
            leptos::task::spawn_local(async move {
                match e.keep(&saved).await {
                    Ok(()) => conversation.kept.update(|k| *k += 1),
                    Err(err) => ui.notice.set(Some(err.into())),
                }
            });
        }
    };
    // Sends (or resends) an exchange's prepared prompt with the settings as they are now.
    let send = move |ex: Exchange| {
        let Some(prepared) = ex.prepared.get_value() else {
            return;
        };
        if let Prepared::Done(answer) = prepared {
            return done(ex, answer);
        }
        let settings = endpoint.settings.get_untracked();
        let Some(ep) = settings.endpoint(&endpoint.key_untracked()) else {
            ex.phase.set(Phase::Broken(Broken::EndpointIncomplete));
            busy.set(false);
            return;
        };
        busy.set(true);
        ex.text.set(String::new());
        ex.model.set_value(ep.model.clone());
        ex.reading.set(None);
        ex.in_page.set_value(ep.base_url == IN_PAGE_BASE_URL);
        ex.phase.set(Phase::Waiting);
        let transport = fetch.get_value();
        leptos::task::spawn_local(async move {
            let mut on = |e: AskEvent<'_>| {
                if let AskEvent::Reading { processed, total } = e {
                    ex.reading.set(Some((processed, total)));
                }
                if let AskEvent::Text(t) = e {
                    if ex.phase.get_untracked() == Phase::Waiting {
                        ex.phase.set(Phase::Streaming);
                    }
                    ex.text.update(|s| s.push_str(t));
                }
            };
            match reply(prepared, Some((&ep, &*transport)), &mut on).await {
                Ok(answer) => done(ex, answer),
                Err(f) => {
                    ex.phase.set(Phase::Failed(f));
                    busy.set(false);
                }
            }
        });
    };
    let ask = move || {
        let q = question.get_untracked().trim().to_string();
        let Some(e) = engine.get_value() else { return };
        if q.is_empty() || busy.get_untracked() {
            return;
        }
        let ex = Exchange::new(conversation.next_id(), q.clone());
        conversation.exchanges.update(|list| list.push(ex));
        question.set(String::new());
        busy.set(true);
        let settings = endpoint.settings.get_untracked();
        let ep = settings.endpoint(&endpoint.key_untracked());
        let transport = fetch.get_value();
        let params = AskParams {
            budget_chars: settings.budget_chars,
            fallback: lang_of(i18n.get_locale_untracked()),
            all_versions: ui.all_versions.get_untracked(),
            ..AskParams::default()
        };
        ex.all_versions.set_value(params.all_versions);
        let turns = conversation.turns_before(ex.id);
        let translate = settings.translation;
        leptos::task::spawn_local(async move {
            let request = Request {
                question: &q,
                turns: &turns,
                params,
                translate,
            };
            let mut on = |e: AskEvent<'_>| match e {
                AskEvent::Translating(_) => ex.phase.set(Phase::Translating),
                AskEvent::Retrieving => ex.phase.set(Phase::Retrieving),
                AskEvent::WordMatches(s) => {
                    ex.sources.set(s.to_vec());
                    ex.word_matches.set(true);
                }
                AskEvent::Sources(s) => {
                    ex.sources.set(s.to_vec());
                    ex.word_matches.set(false);
                }
                _ => {}
            };
            let endpoint = ep.as_ref().map(|e| (e, &*transport));
            match prepare_question(e.session(), &request, endpoint, &mut on).await {
                // Stopped while translating: nothing more is sent; the evidence found without
                // the translation is kept, and Retry goes on from it.
                Ok(asked) if asked.stopped => {
                    ex.prepared.set_value(Some(asked.prepared));
                    ex.phase.set(Phase::Failed(Failure::Aborted));
                    busy.set(false);
                }
                Ok(asked) => {
                    ex.prepared.set_value(Some(asked.prepared));
                    send(ex);
                }
                Err(err) => {
                    ex.phase.set(Phase::Broken(Broken::Failed(err)));
                    busy.set(false);
                }
            }
        });
    };
    let stop = move || fetch.get_value().stop();
    let on_retry = Callback::new(move |ex: Exchange| {
        if !busy.get_untracked() {
            send(ex);
        }
    });
    let lacks_key = move || endpoint.settings.get().lacks_key(&endpoint.key());
    view! {
        <section class="ask" aria-labelledby="ask-title" data-testid="ask"
            on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { stop() }>
            <h2 id="ask-title">{t!(i18n, ask_title)}</h2>
            <form on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                ask();
            }>
                <label for="question" class="visually-hidden">{t!(i18n, ask_label)}</label>
                <textarea
                    id="question"
                    rows="2"
                    data-testid="question"
                    placeholder=move || t_string!(i18n, ask_label)
                    prop:value=move || question.get()
                    on:input=move |ev| question.set(event_target_value(&ev))
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        // Enter asks; Shift+Enter is a new line.
                        if ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() {
                            ev.prevent_default();
                            ask();
                        }
                    }
                ></textarea>
                <button type="submit" data-testid="ask-button" disabled=move || busy.get() || !ready()>
                    {t!(i18n, ask_button)}
                </button>
                <Show when=move || busy.get()>
                    <button type="button" data-testid="stop" on:click=move |_| stop()>{t!(i18n, stop)}</button>
                </Show>
                <button
                    type="button"
                    data-testid="new-conversation"
                    disabled=move || busy.get() || conversation.exchanges.get().is_empty()
                    on:click=move |_| {
                        conversation.exchanges.set(Vec::new());
                        conversation.id.set(String::new());
                    }
                >
                    {t!(i18n, new_conversation)}
                </button>
            </form>
            <p class="hint" data-testid="ask-mode">
                {move || match endpoint.settings.get().endpoint(&endpoint.key()) {
                    Some(ep) if ep.base_url == IN_PAGE_BASE_URL => t!(i18n, ask_mode_in_page, model = ep.model).into_any(),
                    Some(ep) => t!(i18n, ask_mode_model, model = ep.model, base = ep.base_url).into_any(),
                    None => t!(i18n, ask_mode_extractive).into_any(),
                }}
                {move || lacks_key().then(|| view! { " " <strong>{t!(i18n, endpoint_key_missing)}</strong> })}
            </p>
            <div class="conversation" data-testid="conversation">
                <For each=move || conversation.exchanges.get() key=|e| e.id let:ex>
                    <ExchangeView exchange=ex selected=selected on_retry=on_retry />
                </For>
            </div>
            <History engine=engine ui=ui conversation=conversation />
        </section>
    }
}
