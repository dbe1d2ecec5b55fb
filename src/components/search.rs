//! Search without an LLM: a query box, scoping by document, and ranked passages with the
//! document, page and score, query words marked (as text, never HTML); a result opens its
//! page in the source panel ([`crate::components::source`]).

use fonte_core::DocId;
use leptos::prelude::*;

use crate::components::library::EngineHandle;
use crate::components::source::Passage;
use crate::components::versions::{note_view, AllVersions};
use crate::i18n::*;
use crate::state::{ResultRow, Ui};

/// The search view.
#[component]
pub fn Search(ui: Ui, engine: EngineHandle, selected: RwSignal<Option<Passage>>) -> impl IntoView {
    let i18n = use_i18n();
    let query = RwSignal::new(String::new());
    let results = RwSignal::new(Vec::<ResultRow>::new());
    let searched = RwSignal::new(false);
    let reranking = RwSignal::new(false);
    let latest = StoredValue::new(0u64);
    // Documents left out of the search (ids); everything is in scope by default.
    let excluded = RwSignal::new(Vec::<DocId>::new());
    let docs = move || {
        ui.generation.track();
        engine
            .get_value()
            .map(|e| e.documents())
            .unwrap_or_default()
    };
    let many = move || docs().len() > 1;
    let run = move || {
        let Some(e) = engine.get_value() else { return };
        let q = query.get_untracked();
        let all = e.documents();
        let out = excluded.get_untracked();
        let scope: Vec<DocId> = if out.is_empty() {
            Vec::new()
        } else {
            all.into_iter()
                .map(|(id, _)| id)
                .filter(|id| !out.contains(id))
                .collect()
        };
        if !out.is_empty() && scope.is_empty() {
            results.set(Vec::new());
            searched.set(true);
            return;
        }
        // Only the latest search's results are shown (an earlier one may finish later).
        let seq = latest.get_value() + 1;
        latest.set_value(seq);
        // While the query model loads (seconds, on a first search), the word matches at once;
        // then the ranking by meaning and words replaces them.
        if !e.query_ready() {
            results.set(e.search_words(&q, &scope));
            searched.set(true);
            reranking.set(true);
        }
        leptos::task::spawn_local(async move {
            match e.search(&q, &scope).await {
                Ok(_) if latest.get_value() != seq => {}
                Ok(r) => {
                    results.set(r);
                    searched.set(true);
                    reranking.set(false);
                }
                Err(err) => {
                    reranking.set(false);
                    ui.notice.set(Some(err.into()));
                }
            }
        });
    };
    // Re-run when the library changes (a deleted document's results disappear).
    Effect::new(move |_| {
        ui.generation.track();
        if !query.get_untracked().trim().is_empty() {
            run();
        }
    });
    view! {
        <section class="search" aria-labelledby="search-title">
            <h2 id="search-title">{t!(i18n, search_title)}</h2>
            <form role="search" on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                run();
            }>
                <label for="query" class="visually-hidden">{t!(i18n, search_label)}</label>
                <input
                    id="query"
                    type="search"
                    data-testid="query"
                    placeholder=move || t_string!(i18n, search_label)
                    prop:value=move || query.get()
                    on:input=move |ev| query.set(event_target_value(&ev))
                />
                " "
                <button type="submit">{t!(i18n, search_button)}</button>
            </form>
            <Show when=move || reranking.get()>
                <p class="hint" role="status" data-testid="search-reranking">{t!(i18n, search_reranking)}</p>
            </Show>
            <AllVersions ui=ui />
            <Show when=many>
                <fieldset class="scope">
                    <legend>{t!(i18n, search_in)}</legend>
                    <For
                        each=docs
                        key=|(id, _)| id.clone()
                        children=move |(id, name)| {
                            let id2 = id.clone();
                            view! {
                                <label>
                                    <input
                                        type="checkbox"
                                        prop:checked=move || !excluded.get().contains(&id)
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            excluded.update(|x| {
                                                x.retain(|i| *i != id2);
                                                if !on {
                                                    x.push(id2.clone());
                                                }
                                            });
                                            run();
                                        }
                                    />
                                    " "
                                    {name}
                                </label>
                            }
                        }
                    />
                </fieldset>
            </Show>
            <Show when=move || searched.get() && results.get().is_empty()>
                <p class="empty" data-testid="no-results">{t!(i18n, no_results)}</p>
            </Show>
            <ol class="results" data-testid="results">
                <For
                    each=move || results.get()
                    // With whether it is lexical only: a passage whose vector came ranks first by
                    // meaning as it did by its words alone, with the same score, and would keep
                    // its stale "words only" mark.
                    key=|r| (r.chunk, r.score.to_bits(), r.lexical_only)
                    children=move |r| {
                        let score = format!("{:.3}", r.score);
                        view! {
                            <li
                                data-testid="result"
                                data-page=r.page.to_string()
                                data-chunk=r.chunk.to_string()
                                data-lexical-only=r.lexical_only.to_string()
                            >
                                <p class="where">
                                    <button
                                        type="button"
                                        class="link"
                                        data-testid="open-source"
                                        on:click={
                                            let r = r.clone();
                                            move |_| selected.set(Some(Passage::of_result(&r)))
                                        }
                                    >
                                        <span class="doc" data-testid="result-doc">{r.doc_name.clone()}</span>
                                        {t!(i18n, page_n)}
                                        <span data-testid="result-page">{r.page}</span>
                                    </button>
                                    <span class="score">{t!(i18n, score, score)}</span>
                                    {r.version.as_ref().map(|n| view! {
                                        " "
                                        <span class="version" data-testid="result-version">
                                            {note_view(i18n, n, None)}
                                        </span>
                                    })}
                                    <Show when=move || r.lexical_only>
                                        " "
                                        <span class="badge" data-testid="lexical-only">
                                            {t!(i18n, lexical_only)}
                                        </span>
                                    </Show>
                                </p>
                                <Show when={
                                    let h = r.heading.clone();
                                    move || !h.is_empty()
                                }>
                                    <p class="heading">{r.heading.clone()}</p>
                                </Show>
                                <p class="passage">
                                    {r.runs
                                        .into_iter()
                                        .map(|(text, hit)| {
                                            if hit {
                                                view! { <mark>{text}</mark> }.into_any()
                                            } else {
                                                text.into_any()
                                            }
                                        })
                                        .collect_view()}
                                </p>
                            </li>
                        }
                    }
                />
            </ol>
        </section>
    }
}
