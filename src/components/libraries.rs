//! The library switcher: the reader's own library and each hosted corpus or bundle of another
//! model, each its own database (`platform::libraries`). Switching reloads the page on the
//! other library, so no state of one is ever shown with the other; a library that is not the
//! reader's own can be removed from this browser.

use leptos::prelude::*;

use crate::i18n::*;
use crate::platform::libraries::{self, Entry, MINE};
use crate::state::Ui;

/// Opens the page on library `db` (dropping any `?corpus=` from the address, which would
/// choose a library again).
pub fn switch_to(db: &str) {
    libraries::set_current(db);
    if let Some(w) = web_sys::window() {
        let path = w.location().pathname().unwrap_or_else(|_| "./".into());
        let _ = w.location().replace(&path);
    }
}

/// A library's name in the list.
fn name(i18n: leptos_i18n::I18nContext<Locale>, e: &Entry) -> String {
    if e.db == MINE {
        t_string!(i18n, library_mine).to_string()
    } else if e.title.is_empty() {
        e.corpus.clone().unwrap_or_else(|| e.db.clone())
    } else {
        e.title.clone()
    }
}

/// The switcher, with "remove" for a library that is not the reader's own.
#[component]
pub fn LibrarySwitch(ui: Ui) -> impl IntoView {
    let i18n = use_i18n();
    // The library on screen (a hosted corpus being opened is not recorded yet), and the
    // list read again when it has opened (a hosted one gets its title then).
    let on_screen = move || ui.library.get();
    let list = move || {
        ui.loaded.track();
        let (db, title) = on_screen();
        let mut list = libraries::all();
        if !db.is_empty() && !list.iter().any(|e| e.db == db) {
            list.push(Entry {
                db,
                title,
                corpus: None,
                version: None,
            });
        }
        list
    };
    let many = move || list().len() > 1;
    let theirs = move || {
        let (db, _) = on_screen();
        !db.is_empty() && db != MINE
    };
    let remove = {
        move |_| {
            let db = on_screen().0;
            let ok = web_sys::window()
                .and_then(|w| {
                    w.confirm_with_message(t_string!(i18n, library_remove_confirm))
                        .ok()
                })
                .unwrap_or(false);
            if !ok {
                return;
            }
            let db = db.clone();
            leptos::task::spawn_local(async move {
                // The database goes first: a list entry without its data would only reload
                // it; data without an entry would be orphaned.
                if crate::platform::idb::delete(&db).await.is_ok() {
                    libraries::forget(&db);
                    switch_to(MINE);
                }
            });
        }
    };
    let options = move || {
        let current = on_screen().0;
        list()
            .iter()
            .map(|e| {
                let selected = e.db == current;
                view! { <option value=e.db.clone() selected=selected>{name(i18n, e)}</option> }
            })
            .collect_view()
    };
    view! {
        <div class="libraries" hidden=move || !many() data-testid="libraries">
            <label>
                {t!(i18n, library_switch)}
                " "
                <select
                    data-testid="library-switch"
                    on:change=move |ev| switch_to(&event_target_value(&ev))
                >
                    {options}
                </select>
            </label>
            <Show when=theirs>
                " "
                <button type="button" data-testid="library-mine" on:click=move |_| switch_to(MINE)>
                    {t!(i18n, library_open_mine)}
                </button>
                " "
                <button type="button" class="link" data-testid="library-remove" on:click=remove>
                    {t!(i18n, library_remove)}
                </button>
            </Show>
        </div>
    }
}
