//! The answer to a question about the library itself, from its records: a count, or the
//! documents (with how often each mentions the term), each opening its first page. Nothing
//! was searched and nothing was sent, and the answer says so.

use fonte_core::answer::library::{Counted, LibraryAnswer, Listed};
use leptos::prelude::*;

use crate::components::source::Passage;
use crate::components::versions::date_text;
use crate::i18n::*;

/// When a document was added, as the browser writes a date and time in its own locale.
fn added_text(i18n: leptos_i18n::I18nContext<Locale>, ms: u64) -> String {
    let locale = i18n.get_locale_untracked().as_str();
    let when = js_sys::Date::new(&(ms as f64).into());
    String::from(when.to_locale_string(locale, &wasm_bindgen::JsValue::UNDEFINED))
}

/// A listed document's row: its name opens its first page.
fn row(d: Listed, selected: RwSignal<Option<Passage>>) -> impl IntoView {
    let i18n = use_i18n();
    let first_page = Passage {
        doc_id: d.id.clone(),
        doc_name: d.name.clone(),
        page: 1,
        char_start: 0,
        char_end: 0,
        text: String::new(),
    };
    let mentions = d.mentions;
    view! {
        <li data-testid="library-document" data-mentions=mentions.map(|m| m.to_string())>
            <button type="button" class="link" on:click=move |_| selected.set(Some(first_page.clone()))>
                <span class="doc">{d.name.clone()}</span>
            </button>
            " (" {t!(i18n, library_pages, n = d.pages.to_string())}
            {d.published.map(|p| view! {
                ", " {t!(i18n, library_published, date = date_text(i18n, p))}
            })}
            {d.added.map(|ms| view! { ", " {t!(i18n, library_added, date = added_text(i18n, ms))} })}
            {mentions.map(|m| view! { ", " {t!(i18n, library_mentions, n = m.to_string())} })}
            ")"
        </li>
    }
}

/// The answer's body.
pub fn library_view(answer: LibraryAnswer, selected: RwSignal<Option<Passage>>) -> AnyView {
    let i18n = use_i18n();
    let body = match answer {
        LibraryAnswer::Count { what, n } => {
            let n = n.to_string();
            let text = match what {
                Counted::Documents => t!(i18n, library_count_documents, n = n.clone()).into_any(),
                Counted::Pages => t!(i18n, library_count_pages, n = n.clone()).into_any(),
                Counted::Passages => t!(i18n, library_count_passages, n = n.clone()).into_any(),
            };
            view! { <p class="answer-text" data-testid="library-count" data-n=n>{text}</p> }
                .into_any()
        }
        LibraryAnswer::Documents(docs) if docs.is_empty() => {
            view! { <p class="answer-text" data-testid="library-none">{t!(i18n, library_none)}</p> }
                .into_any()
        }
        LibraryAnswer::Documents(docs) => view! {
            <p class="answer-text" data-testid="library-listed">
                {t!(i18n, library_documents, n = docs.len().to_string())}
            </p>
            <ul class="library-documents">
                {docs.into_iter().map(|d| row(d, selected)).collect_view()}
            </ul>
        }
        .into_any(),
    };
    view! {
        {body}
        <p class="hint" data-testid="library-note">{t!(i18n, library_answer_note)}</p>
    }
    .into_any()
}
