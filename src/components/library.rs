//! The document library: one row per file with its status, overall progress with time left,
//! cancel, delete, clear everything, unfinished files of an earlier visit, storage used.

use std::rc::Rc;

use leptos::prelude::*;

use crate::components::drop_zone::human_size;
use crate::components::errors::{error_view, notice_view};
use crate::components::versions::{DocDate, Proposals};
use crate::components::words::{eta_view, placement_view, status_view};
use crate::engine::Engine;
use crate::i18n::*;
use crate::models::Compute;
use crate::state::{Loaded, Row, Status, Ui, Why};

/// The engine as the components hold it (one page, one thread).
pub type EngineHandle = StoredValue<Option<Rc<Engine>>, LocalStorage>;

/// The list of documents and the controls over it.
#[component]
pub fn Library(ui: Ui, engine: EngineHandle) -> impl IntoView {
    let i18n = use_i18n();
    let with_engine = move |f: Box<dyn FnOnce(Rc<Engine>)>| {
        if let Some(e) = engine.get_value() {
            f(e);
        }
    };
    let row_view = move |row: Row| {
        let row_id = row.id.clone();
        let kind = row.status.kind();
        let stored = row.status.is_stored();
        let name = row.name.clone();
        let doc_id = row.id.clone().map(String::from).unwrap_or_default();
        let delete = move |_| {
            let Some(id) = row.id.clone() else { return };
            let key = row.key;
            with_engine(Box::new(move |e| {
                leptos::task::spawn_local(async move {
                    if let Err(err) = e.delete(key, &id).await {
                        ui.notice.set(Some(err.into()));
                    }
                });
            }));
        };
        view! {
            <tr data-testid="doc-row" data-status=kind data-id=doc_id>
                <td class="name">
                    {row.name.clone()}
                    {row.from_bundle.clone().map(|title| view! {
                        " "
                        <span class="provenance" data-testid="doc-provenance">
                            {t!(i18n, doc_from_bundle, title)}
                        </span>
                    })}
                    {row_id.filter(|_| stored).map(|id| view! {
                        <br />
                        <DocDate ui=ui engine=engine id=id name=row.name.clone() />
                    })}
                </td>
                <td class="num">{row.pages.map(|p| p.to_string()).unwrap_or_default()}</td>
                <td class="num passages">{row.chunks.map(|c| c.to_string()).unwrap_or_default()}</td>
                <td class="num size">{row.size.map(human_size).unwrap_or_default()}</td>
                <td class="status" data-testid="doc-status">
                    {status_view(i18n, &row.status)}
                    {(row.status == Status::Rejected(Why::Password)).then(|| {
                        let key = row.key;
                        let password = RwSignal::new(String::new());
                        let label = format!("{} {}", t_string!(i18n, password_for), row.name);
                        view! {
                            <form class="unlock" on:submit=move |ev: leptos::ev::SubmitEvent| {
                                ev.prevent_default();
                                let pw = password.get_untracked();
                                with_engine(Box::new(move |e| e.unlock(key, pw)));
                            }>
                                <input
                                    type="password"
                                    data-testid="password"
                                    aria-label=label
                                    autocomplete="off"
                                    on:input=move |ev| password.set(event_target_value(&ev))
                                />
                                " "
                                <button type="submit">{t!(i18n, open_with_password)}</button>
                            </form>
                        }
                    })}
                </td>
                <td>
                    <Show when=move || stored>
                        <button
                            type="button"
                            class="link"
                            aria-label={
                                let name = name.clone();
                                move || format!("{} {name}", t_string!(i18n, delete))
                            }
                            on:click=delete.clone()
                        >
                            {t!(i18n, delete)}
                        </button>
                    </Show>
                </td>
            </tr>
        }
    };
    // The dates and versions shown follow the library (the engine is set before the library
    // on screen is named, so this runs once it can).
    Effect::new(move |_| {
        ui.generation.track();
        ui.library.track();
        if let Some(e) = engine.get_value() {
            e.refresh_versions();
        }
    });
    let ask_to_clear = move || {
        web_sys::window()
            .and_then(|w| w.confirm_with_message(t_string!(i18n, confirm_clear)).ok())
            .unwrap_or(false)
    };
    let clear = move |_| {
        if !ask_to_clear() {
            return;
        }
        with_engine(Box::new(move |e| {
            leptos::task::spawn_local(async move {
                if let Err(err) = e.clear().await {
                    ui.notice.set(Some(err.into()));
                }
            });
        }));
    };
    // The library could not be opened: delete the database itself and start afresh.
    let clear_failed = move |_| {
        if !ask_to_clear() {
            return;
        }
        leptos::task::spawn_local(async move {
            match crate::platform::idb::delete(&crate::platform::libraries::current().db).await {
                Ok(()) => {
                    let _ = web_sys::window().map(|w| w.location().reload());
                }
                Err(err) => ui.notice.set(Some(err.into())),
            }
        });
    };
    let cancel = move |_| with_engine(Box::new(|e| e.cancel()));
    let resume = move |_| {
        with_engine(Box::new(move |e| {
            leptos::task::spawn_local(async move {
                if let Err(err) = e.resume().await {
                    ui.notice.set(Some(err.into()));
                }
            });
        }));
    };
    let discard = move |_| {
        with_engine(Box::new(move |e| {
            leptos::task::spawn_local(async move {
                if let Err(err) = e.discard_pending().await {
                    ui.notice.set(Some(err.into()));
                }
            });
        }));
    };
    let loaded_text = move || {
        match ui.loaded.get() {
        Loaded::Opening => t!(i18n, opening).into_any(),
        Loaded::Downloading { done, total } => {
            let done = crate::components::words::megabytes(done);
            let total = crate::components::words::megabytes(total);
            t!(i18n, downloading_corpus, done, total).into_any()
        }
        Loaded::Storing { done, total } => t!(i18n, storing_corpus, done, total).into_any(),
        Loaded::Ready {
            restored,
            documents,
            chunks,
            ms,
        } => {
            let ms = format!("{ms:.0}");
            if documents == 0 {
                ().into_any()
            } else if restored {
                t!(i18n, loaded_restored, documents, chunks, ms).into_any()
            } else {
                t!(i18n, loaded_rebuilt, documents, chunks, ms).into_any()
            }
        }
        Loaded::Mismatch { stored } => {
            let reindex = move |_| {
                with_engine(Box::new(move |e| {
                    leptos::task::spawn_local(async move {
                        if let Err(err) = e.reindex().await {
                            ui.notice.set(Some(err.into()));
                        }
                    });
                }));
            };
            view! {
                {t!(
                    i18n,
                    mismatch,
                    model = stored.model_id.clone(),
                    dim = stored.dim,
                    tokens = stored.chunk_params.target_tokens
                )}
                " "
                <button type="button" data-testid="reindex" on:click=reindex>
                    {t!(i18n, reindex)}
                </button>
            }
            .into_any()
        }
        Loaded::AskToOpen { origin } => view! {
            <span data-testid="corpus-ask">{t!(i18n, corpus_ask, origin)}</span>
            " "
            <button type="button" data-testid="corpus-open" on:click=move |_| ui.consent.set(Some(true))>
                {t!(i18n, corpus_ask_open)}
            </button>
            " "
            <button type="button" class="link" data-testid="corpus-cancel" on:click=move |_| ui.consent.set(Some(false))>
                {t!(i18n, corpus_ask_cancel)}
            </button>
        }
        .into_any(),
        Loaded::Failed(why) => view! {
            {t!(i18n, open_failed, why = move || error_view(i18n, &why))}
            " "
            // Always there, even when the library cannot be opened at all.
            <button type="button" class="link danger" data-testid="clear-failed" on:click=clear_failed>
                {t!(i18n, clear_all)}
            </button>
        }
        .into_any(),
    }
    };
    view! {
        <section class="library" aria-labelledby="library-title">
            <h2 id="library-title">{t!(i18n, library_title)}</h2>
            <p class="loaded" data-testid="library-loaded" data-state=move || match ui.loaded.get() {
                Loaded::Opening => "opening",
                Loaded::Downloading { .. } => "downloading",
                Loaded::Storing { .. } => "storing",
                Loaded::Ready { restored: true, .. } => "restored",
                Loaded::Ready { .. } => "ready",
                Loaded::Mismatch { .. } => "mismatch",
                Loaded::AskToOpen { .. } => "ask",
                Loaded::Failed(_) => "failed",
            }>{loaded_text}</p>
            <Show when=move || ui.notice.get().is_some()>
                <p class="notice" role="alert" data-testid="notice">
                    {move || ui.notice.get().map(|n| notice_view(i18n, &n))}
                    " "
                    <button type="button" class="link" on:click=move |_| ui.notice.set(None)>
                        {t!(i18n, dismiss)}
                    </button>
                </p>
            </Show>
            <Show when=move || !ui.pending.get().is_empty() && !ui.busy.get()>
                <div class="pending" data-testid="pending" role="status">
                    <p>
                        {t!(i18n, pending_intro)}
                        " "
                        {move || {
                            ui.pending.get().into_iter().map(|(_, n)| n).collect::<Vec<_>>().join(", ")
                        }}
                    </p>
                    <button type="button" on:click=resume>{t!(i18n, resume)}</button>
                    " "
                    <button type="button" on:click=discard>{t!(i18n, discard)}</button>
                </div>
            </Show>
            <Show when=move || ui.busy.get()>
                <div class="progress" role="status" data-testid="progress">
                    <progress max="1" value=move || ui.progress.get().fraction().to_string()></progress>
                    <span>
                        {move || {
                            let p = ui.progress.get();
                            let pct = format!("{:.0}%", p.fraction() * 100.0);
                            match p.eta_seconds(js_sys::Date::now()) {
                                Some(s) => view! { {pct} ", " {eta_view(i18n, s)} }.into_any(),
                                None => pct.into_any(),
                            }
                        }}
                    </span>
                    " "
                    <button type="button" data-testid="cancel" on:click=cancel>{t!(i18n, cancel)}</button>
                </div>
            </Show>
            <Show
                when=move || !ui.rows.get().is_empty()
                fallback=move || view! {
                    <p class="empty" data-testid="library-empty">{t!(i18n, library_empty)}</p>
                }
            >
                <Proposals ui=ui engine=engine />
                <table class="docs" data-testid="library">
                    <thead>
                        <tr>
                            <th scope="col">{t!(i18n, col_document)}</th>
                            <th scope="col">{t!(i18n, col_pages)}</th>
                            <th scope="col" class="passages">{t!(i18n, col_passages)}</th>
                            <th scope="col" class="size">{t!(i18n, col_size)}</th>
                            <th scope="col">{t!(i18n, col_status)}</th>
                            <th scope="col"><span class="visually-hidden">{t!(i18n, col_actions)}</span></th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || ui.rows.get()
                            key=|r| format!("{}:{:?}:{:?}:{:?}", r.key, r.status, r.pages, r.chunks)
                            children=row_view
                        />
                    </tbody>
                </table>
                <p class="library-actions">
                    <button type="button" class="link danger" data-testid="clear" on:click=clear>
                        {t!(i18n, clear_all)}
                    </button>
                </p>
            </Show>
            <p class="compute" data-testid="compute" data-compute=move || match ui.placement.get() {
                Some(p) if p.compute == Compute::WebGpu => "webgpu",
                Some(_) => "wasm",
                None => "",
            }>
                {move || ui.placement.get().map(|p| placement_view(i18n, p))}
            </p>
            <p class="storage" data-testid="storage">
                {move || {
                    ui.storage.get().map(|(used, quota)| {
                        let (used, quota) = (human_size(used), human_size(quota));
                        t!(i18n, storage_used, used, quota)
                    })
                }}
            </p>
        </section>
    }
}
