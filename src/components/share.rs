//! Sharing: export the library (or the documents ticked) as a `.fonte` bundle download, with
//! or without the PDFs, and import a bundle from a file (also by dropping it on the drop
//! zone: see `app.rs`). A refused bundle says why and changes nothing.

use fonte_core::share::bundle::{limits, BundleError};
use std::sync::Arc;

use fonte_core::DocId;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::components::errors::error_view;
use crate::components::library::EngineHandle;
use crate::i18n::*;
use crate::state::Ui;
use crate::AppError;

/// A refused bundle's bytes, kept to open it as a library of its own (compared by identity:
/// the state is set often, the bytes are large).
#[derive(Clone)]
pub struct Held(Arc<Vec<u8>>);

impl PartialEq for Held {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Where an import or export is.
#[derive(Clone, PartialEq)]
pub enum Sharing {
    /// Nothing under way.
    Idle,
    /// Importing: documents stored so far, of all.
    Importing(usize, usize),
    /// Imported: added, already there.
    Imported(usize, usize),
    /// Refused, with why.
    Refused(AppError),
    /// Of another model than this library's: offered as a library of its own.
    OtherModel(Held, AppError),
    /// Exporting.
    Exporting,
}

/// Offers `bytes` as a download named `name`.
fn download(bytes: &[u8], name: &str) -> Result<(), wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url)
}

/// Imports `bytes` into the library, reporting in `state`.
pub fn import(engine: EngineHandle, state: RwSignal<Sharing>, bytes: Vec<u8>) {
    let Some(e) = engine.get_value() else { return };
    state.set(Sharing::Importing(0, 0));
    leptos::task::spawn_local(async move {
        let mut on = |done, total| state.set(Sharing::Importing(done, total));
        match e.import(&bytes, &mut on).await {
            Ok(got) => state.set(Sharing::Imported(got.added.len(), got.skipped.len())),
            Err(err) => {
                if matches!(
                    err,
                    AppError::Core(fonte_core::Error::Bundle(BundleError::OtherModel { .. }))
                ) {
                    state.set(Sharing::OtherModel(Held(Arc::new(bytes)), err));
                } else {
                    state.set(Sharing::Refused(err));
                }
            }
        }
    });
}

/// A bundle file of `size` bytes is read only within [`limits::FILE`]: refused before it is
/// read into the page otherwise.
pub fn bundle_size(size: f64) -> Result<(), AppError> {
    if size > limits::FILE as f64 {
        return Err(BundleError::TooLarge {
            what: format!("a file of {size} bytes"),
            limit: limits::FILE,
        }
        .into());
    }
    Ok(())
}

/// Stores the held bundle as a library of its own and opens the page on it.
fn open_separate(engine: EngineHandle, state: RwSignal<Sharing>, held: Held) {
    let Some(e) = engine.get_value() else { return };
    state.set(Sharing::Importing(0, 0));
    leptos::task::spawn_local(async move {
        match e.import_separate(&held.0).await {
            Ok(entry) => crate::components::libraries::switch_to(&entry.db),
            Err(err) => state.set(Sharing::Refused(err)),
        }
    });
}

/// The share controls.
#[component]
pub fn Share(ui: Ui, engine: EngineHandle, state: RwSignal<Sharing>) -> impl IntoView {
    let i18n = use_i18n();
    let pdfs = RwSignal::new(true);
    // Documents left out of the export (ids); all are in by default.
    let left_out = RwSignal::new(Vec::<DocId>::new());
    let stored = move || -> Vec<(DocId, String)> {
        ui.rows
            .get()
            .into_iter()
            .filter(|r| r.status.is_stored())
            .filter_map(|r| Some((r.id?, r.name)))
            .collect()
    };
    let export = move |_| {
        let Some(e) = engine.get_value() else { return };
        let out = left_out.get_untracked();
        let ids: Option<Vec<DocId>> = (!out.is_empty()).then(|| {
            stored()
                .into_iter()
                .map(|(id, _)| id)
                .filter(|id| !out.contains(id))
                .collect()
        });
        state.set(Sharing::Exporting);
        leptos::task::spawn_local(async move {
            match e
                .export(ids.as_deref(), "Fonte library", pdfs.get_untracked())
                .await
            {
                Ok(bytes) => {
                    let _ = download(&bytes, "library.fonte");
                    state.set(Sharing::Idle);
                }
                Err(err) => state.set(Sharing::Refused(err)),
            }
        });
    };
    let picked = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        if let Err(too_large) = bundle_size(file.size()) {
            state.set(Sharing::Refused(too_large));
            return;
        }
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                Ok(buf) => import(engine, state, js_sys::Uint8Array::new(&buf).to_vec()),
                Err(err) => state.set(Sharing::Refused(AppError::File(AppError::js_text(&err)))),
            }
        });
    };
    let has_docs = move || ui.rows.get().iter().any(|r| r.status.is_stored());
    view! {
        <section class="share" aria-labelledby="share-title" data-testid="share">
            <h2 id="share-title">{t!(i18n, share_title)}</h2>
            <p>
                <button type="button" data-testid="export" disabled=move || !has_docs() on:click=export>
                    {t!(i18n, export_button)}
                </button>
                " "
                <label class="check">
                    <input type="checkbox" data-testid="export-pdfs" prop:checked=move || pdfs.get()
                        on:change=move |ev| pdfs.set(event_target_checked(&ev)) />
                    " " {t!(i18n, export_pdfs)}
                </label>
            </p>
            <details class="export-choice">
                <summary>{t!(i18n, export_choose)}</summary>
                <For each=stored key=|(id, _)| id.clone() children=move |(id, name)| {
                    let id2 = id.clone();
                    view! {
                        <label class="check">
                            <input
                                type="checkbox"
                                data-testid="export-doc"
                                prop:checked=move || !left_out.get().contains(&id)
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    left_out.update(|x| {
                                        x.retain(|i| *i != id2);
                                        if !on {
                                            x.push(id2.clone());
                                        }
                                    });
                                }
                            />
                            " " {name}
                        </label>
                    }
                } />
            </details>
            <p>
                <label for="bundle-input">{t!(i18n, import_label)}</label>
                " "
                <input id="bundle-input" type="file" accept=".fonte" data-testid="import" on:change=picked />
            </p>
            <p role="status" data-testid="share-status" data-state=move || match state.get() {
                Sharing::Idle => "idle",
                Sharing::Importing(..) => "importing",
                Sharing::Imported(..) => "imported",
                Sharing::Refused(_) | Sharing::OtherModel(..) => "refused",
                Sharing::Exporting => "exporting",
            }>
                {move || match state.get() {
                    Sharing::Idle => ().into_any(),
                    Sharing::Exporting => t_string!(i18n, exporting).to_string().into_any(),
                    Sharing::Importing(done, total) => format!("{} {done}/{total}", t_string!(i18n, importing)).into_any(),
                    Sharing::Imported(added, skipped) => format!("{} {added}; {} {skipped}", t_string!(i18n, imported_added), t_string!(i18n, imported_skipped)).into_any(),
                    Sharing::Refused(why) | Sharing::OtherModel(_, why) => view! {
                        {t!(i18n, bundle_refused)} " " {error_view(i18n, &why)}
                    }.into_any(),
                }}
                {move || match state.get() {
                    Sharing::OtherModel(held, _) => view! {
                        " "
                        <button type="button" data-testid="import-separate"
                            on:click=move |_| open_separate(engine, state, held.clone())>
                            {t!(i18n, import_separate)}
                        </button>
                    }.into_any(),
                    _ => ().into_any(),
                }}
            </p>
        </section>
    }
}
