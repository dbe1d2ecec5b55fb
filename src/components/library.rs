//! The document library: one row per file with its status, overall progress with time left,
//! cancel, delete, clear everything, unfinished files of an earlier visit, storage used.

use std::rc::Rc;

use leptos::prelude::*;

use crate::components::drop_zone::human_size;
use crate::engine::Engine;
use crate::state::{Loaded, Row, Status, Ui};

/// The engine as the components hold it (one page, one thread).
pub type EngineHandle = StoredValue<Option<Rc<Engine>>, LocalStorage>;

fn status_text(s: &Status) -> String {
    match s {
        Status::Queued => "queued".into(),
        Status::Parsing => "parsing".into(),
        Status::Embedding { done, total } => format!("embedding {done} of {total}"),
        Status::Ready => "ready".into(),
        Status::Partial(why) => format!("partial: {why}"),
        Status::Rejected(why) => format!("rejected: {why}"),
        Status::Duplicate(of) => format!("duplicate of {of}: skipped"),
        Status::Cancelled => "cancelled".into(),
        Status::Failed(why) => format!("failed: {why}"),
    }
}

fn eta_text(seconds: f64) -> String {
    let s = seconds.round() as u64;
    if s >= 90 {
        format!("about {} min left", s.div_ceil(60))
    } else {
        format!("about {s} s left")
    }
}

/// The list of documents and the controls over it.
#[component]
pub fn Library(ui: Ui, engine: EngineHandle) -> impl IntoView {
    let with_engine = move |f: Box<dyn FnOnce(Rc<Engine>)>| {
        if let Some(e) = engine.get_value() {
            f(e);
        }
    };
    let row_view = move |row: Row| {
        let kind = row.status.kind();
        let stored = row.status.is_stored();
        let name = row.name.clone();
        let delete = move |_| {
            let Some(id) = row.id.clone() else { return };
            let key = row.key;
            with_engine(Box::new(move |e| {
                leptos::task::spawn_local(async move {
                    if let Err(err) = e.delete(key, &id).await {
                        ui.notice.set(Some(err.to_string()));
                    }
                });
            }));
        };
        view! {
            <tr data-testid="doc-row" data-status=kind>
                <td class="name">{row.name.clone()}</td>
                <td class="num">{row.pages.map(|p| p.to_string()).unwrap_or_default()}</td>
                <td class="num">{row.chunks.map(|c| c.to_string()).unwrap_or_default()}</td>
                <td class="num">{row.size.map(human_size).unwrap_or_default()}</td>
                <td class="status" data-testid="doc-status">{status_text(&row.status)}</td>
                <td>
                    <Show when=move || stored>
                        <button
                            type="button"
                            class="link"
                            aria-label=format!("Delete {name}")
                            on:click=delete.clone()
                        >
                            "Delete"
                        </button>
                    </Show>
                </td>
            </tr>
        }
    };
    let clear = move |_| {
        let confirmed = web_sys::window()
            .and_then(|w| {
                w.confirm_with_message("Remove every document from this browser?")
                    .ok()
            })
            .unwrap_or(false);
        if !confirmed {
            return;
        }
        with_engine(Box::new(move |e| {
            leptos::task::spawn_local(async move {
                if let Err(err) = e.clear().await {
                    ui.notice.set(Some(err.to_string()));
                }
            });
        }));
    };
    let cancel = move |_| with_engine(Box::new(|e| e.cancel()));
    let resume = move |_| {
        with_engine(Box::new(move |e| {
            leptos::task::spawn_local(async move {
                if let Err(err) = e.resume().await {
                    ui.notice.set(Some(err.to_string()));
                }
            });
        }));
    };
    let discard = move |_| {
        with_engine(Box::new(move |e| {
            leptos::task::spawn_local(async move {
                if let Err(err) = e.discard_pending().await {
                    ui.notice.set(Some(err.to_string()));
                }
            });
        }));
    };
    let loaded_text = move || match ui.loaded.get() {
        Loaded::Opening => "Opening your library…".to_string(),
        Loaded::Ready {
            restored,
            documents,
            chunks,
            ms,
        } => {
            if documents == 0 {
                String::new()
            } else {
                format!(
                    "{documents} documents, {chunks} passages, ready in {ms:.0} ms ({})",
                    if restored {
                        "saved index"
                    } else {
                        "index rebuilt from stored passages"
                    }
                )
            }
        }
        Loaded::Mismatch { stored } => format!(
            "This library was built with {stored}, not the current model. Clear it and add \
             the files again to re-index them."
        ),
        Loaded::Failed(why) => format!("Could not open the library: {why}"),
    };
    view! {
        <section class="library" aria-labelledby="library-title">
            <h2 id="library-title">"Your documents"</h2>
            <p class="loaded" data-testid="library-loaded" data-state=move || match ui.loaded.get() {
                Loaded::Opening => "opening",
                Loaded::Ready { restored: true, .. } => "restored",
                Loaded::Ready { .. } => "ready",
                Loaded::Mismatch { .. } => "mismatch",
                Loaded::Failed(_) => "failed",
            }>{loaded_text}</p>
            <Show when=move || ui.notice.get().is_some()>
                <p class="notice" role="alert" data-testid="notice">
                    {move || ui.notice.get().unwrap_or_default()}
                    " "
                    <button type="button" class="link" on:click=move |_| ui.notice.set(None)>
                        "Dismiss"
                    </button>
                </p>
            </Show>
            <Show when=move || !ui.pending.get().is_empty() && !ui.busy.get()>
                <div class="pending" data-testid="pending" role="status">
                    <p>
                        "Not finished on your last visit: "
                        {move || {
                            ui.pending.get().into_iter().map(|(_, n)| n).collect::<Vec<_>>().join(", ")
                        }}
                    </p>
                    <button type="button" on:click=resume>"Resume"</button>
                    " "
                    <button type="button" on:click=discard>"Discard"</button>
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
                                Some(s) => format!("{pct}, {}", eta_text(s)),
                                None => pct,
                            }
                        }}
                    </span>
                    " "
                    <button type="button" data-testid="cancel" on:click=cancel>"Cancel"</button>
                </div>
            </Show>
            <Show
                when=move || !ui.rows.get().is_empty()
                fallback=|| view! {
                    <p class="empty" data-testid="library-empty">
                        "No documents yet. Drop PDFs below to add them to your library."
                    </p>
                }
            >
                <table class="docs" data-testid="library">
                    <thead>
                        <tr>
                            <th scope="col">"Document"</th>
                            <th scope="col">"Pages"</th>
                            <th scope="col">"Passages"</th>
                            <th scope="col">"Size"</th>
                            <th scope="col">"Status"</th>
                            <th scope="col"><span class="visually-hidden">"Actions"</span></th>
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
                        "Clear everything"
                    </button>
                </p>
            </Show>
            <p class="storage" data-testid="storage">
                {move || {
                    ui.storage
                        .get()
                        .map(|(used, quota)| {
                            format!("Storage used: {} of {}", human_size(used), human_size(quota))
                        })
                        .unwrap_or_default()
                }}
            </p>
        </section>
    }
}
