//! The source panel: a passage's page rendered from the stored PDF with the passage marked,
//! opened from a search result or from a citation of an answer.

use leptos::prelude::*;

use crate::components::errors::error_view;
use crate::components::library::EngineHandle;
use crate::i18n::*;
use crate::platform::pdfview::render_page;
use crate::state::ResultRow;
use crate::AppError;

/// A passage to show on its page.
#[derive(Debug, Clone, PartialEq)]
pub struct Passage {
    /// Document id.
    pub doc_id: fonte_core::DocId,
    /// Document name, shown as text.
    pub doc_name: String,
    /// 1-based page.
    pub page: u32,
    /// Where it is in the page's text, in characters.
    pub char_start: usize,
    /// End (exclusive).
    pub char_end: usize,
    /// Its text (found by its words on pages stored without their lines).
    pub text: String,
}

impl Passage {
    /// The passage of a search result.
    pub fn of_result(r: &ResultRow) -> Self {
        Self {
            doc_id: r.doc_id.clone(),
            doc_name: r.doc_name.clone(),
            page: r.page,
            char_start: r.char_start,
            char_end: r.char_end,
            text: r.runs.iter().map(|(t, _)| t.as_str()).collect(),
        }
    }

    /// The passage of an answer's source.
    pub fn of_source(s: &fonte_core::answer::prompt::Source) -> Self {
        Self {
            doc_id: s.doc_id.clone(),
            doc_name: s.doc.clone(),
            page: s.page,
            char_start: s.char_start,
            char_end: s.char_end,
            text: s.text.clone(),
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Shown {
    Loading,
    Page(u32),
    Missing,
    Failed,
}

/// The selected passage's page, rendered from the stored PDF with the passage marked.
#[component]
pub fn SourcePanel(selected: RwSignal<Option<Passage>>, engine: EngineHandle) -> impl IntoView {
    let i18n = use_i18n();
    let container = NodeRef::<leptos::html::Div>::new();
    let shown = RwSignal::new(Shown::Loading);
    let error = RwSignal::new(None::<AppError>);
    Effect::new(move |_| {
        let Some(r) = selected.get() else { return };
        let Some(e) = engine.get_value() else { return };
        shown.set(Shown::Loading);
        let passage = r.text.clone();
        leptos::task::spawn_local(async move {
            let Some(el) = container.get_untracked() else {
                return;
            };
            let el: &web_sys::Element = &el;
            el.replace_children_with_node_0();
            match e.pdf(&r.doc_id).await {
                Ok(Some(bytes)) if !bytes.is_empty() => {
                    // Without stored lines (an older record) the passage is found by its words.
                    let marks = e
                        .marks(&r.doc_id, r.page, r.char_start, r.char_end)
                        .await
                        .unwrap_or_default();
                    match render_page(el, &bytes, r.page, &passage, &marks).await {
                        Ok(marked) => {
                            shown.set(Shown::Page(marked));
                            el.scroll_into_view();
                        }
                        Err(err) => {
                            error.set(Some(err));
                            shown.set(Shown::Failed);
                        }
                    }
                }
                Ok(_) => {
                    el.set_text_content(Some(&passage));
                    shown.set(Shown::Missing);
                }
                Err(err) => {
                    error.set(Some(err));
                    shown.set(Shown::Failed);
                }
            }
        });
    });
    let title = move || {
        selected
            .get()
            .map(|r| format!("{}, {}", r.doc_name, r.page))
            .unwrap_or_default()
    };
    view! {
        <aside
            class="source"
            data-testid="source"
            aria-labelledby="source-title"
            hidden=move || selected.get().is_none()
            data-state=move || match shown.get() {
                Shown::Loading => "loading",
                Shown::Page(_) => "page",
                Shown::Missing => "missing",
                Shown::Failed => "failed",
            }
        >
            <h3 id="source-title">{t!(i18n, source_title)} ": " {title}</h3>
            <button type="button" on:click=move |_| selected.set(None)>{t!(i18n, source_close)}</button>
            <p class="source-state" role="status">
                {move || match shown.get() {
                    Shown::Loading => t!(i18n, source_loading).into_any(),
                    Shown::Page(_) => t!(i18n, source_marked).into_any(),
                    Shown::Missing => t!(i18n, source_missing).into_any(),
                    Shown::Failed => view! { {t!(i18n, source_failed)} " " {move || error.get().map(|e| error_view(i18n, &e))} }.into_any(),
                }}
            </p>
            <div class="page" node_ref=container data-testid="source-page"></div>
        </aside>
    }
}
