//! Top-level state and layout.

use fonte_core::pdf::Limits;
use leptos::prelude::*;

use crate::components::ask::endpoint::{EndpointSettingsView, EndpointUi};
use crate::components::ask::Ask;
use crate::components::drop_zone::{DropZone, PickedFile};
use crate::components::libraries::{switch_to, LibrarySwitch};
use crate::components::library::{EngineHandle, Library};
use crate::components::search::Search;
use crate::components::settings::Settings;
use crate::components::share::{bundle_size, import, Share, Sharing};
use crate::components::source::{Passage, SourcePanel};
use crate::engine::Engine;
use crate::i18n::*;
use crate::state::{Loaded, Notice, Row, Status, Ui, Why};
use crate::AppError;

fn is_pdf(f: &PickedFile) -> bool {
    f.name.to_lowercase().ends_with(".pdf") || f.file.type_() == "application/pdf"
}

use crate::platform::files::read_file as read;

/// The app: the interface language (from the browser, switchable) around the page.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <I18nContextProvider>
            <Page />
        </I18nContextProvider>
    }
}

/// Switches the interface language.
#[component]
fn LanguagePicker() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <label class="language">
            {t!(i18n, language)}
            " "
            <select
                data-testid="language"
                on:change=move |ev| {
                    let locale = match event_target_value(&ev).as_str() {
                        "pt-BR" => Locale::pt_BR,
                        _ => Locale::en,
                    };
                    i18n.set_locale(locale);
                }
                prop:value=move || i18n.get_locale().to_string()
            >
                <option value="en">"English"</option>
                <option value="pt-BR">"Português (Brasil)"</option>
            </select>
        </label>
    }
}

/// The whole page: header, the document library, the drop zone, asking, search and the
/// settings, with the source panel beside them.
#[component]
fn Page() -> impl IntoView {
    let i18n = use_i18n();
    let ui = Ui::new();
    let engine: EngineHandle = StoredValue::new_local(None);
    let endpoint = EndpointUi::load();
    // The passage the source panel shows (from a search result or an answer's citation).
    let selected = RwSignal::new(None::<Passage>);
    let sharing = RwSignal::new(Sharing::Idle);
    leptos::task::spawn_local(async move {
        // A published folder's service worker first: the page may reload to be served by it.
        if crate::platform::offline::start().await {
            return;
        }
        use crate::platform::libraries;
        let entry = libraries::chosen();
        ui.library.set((entry.db.clone(), entry.title.clone()));
        // A corpus on another site is not contacted before the user agrees.
        if entry.version.is_none() {
            if let Some(origin) = libraries::foreign_origin(&entry) {
                ui.loaded.set(Loaded::AskToOpen { origin });
                loop {
                    match ui.consent.get_untracked() {
                        Some(true) => break,
                        Some(false) => {
                            switch_to(&libraries::current().db);
                            return;
                        }
                        None => gloo::timers::future::TimeoutFuture::new(100).await,
                    }
                }
                ui.loaded.set(Loaded::Opening);
            }
        }
        match Engine::open(ui, entry).await {
            Ok(e) => {
                // The engine first: what follows the library on screen reads it.
                engine.set_value(Some(e.clone()));
                ui.library
                    .set((e.entry().db.clone(), e.entry().title.clone()));
                crate::platform::offline::warm();
                // A hosted corpus updated on its server since it was stored (offline: later).
                match e.refresh_hosted().await {
                    Ok(Some((added, removed))) => ui
                        .notice
                        .set(Some(Notice::CorpusUpdated { added, removed })),
                    Ok(None) => {}
                    Err(err) => web_sys::console::warn_1(
                        &format!("Fonte: the corpus could not be checked for updates: {err}")
                            .into(),
                    ),
                }
                crate::platform::storage::persist().await;
                e.refresh_storage().await;
            }
            Err(err) => ui.loaded.set(Loaded::Failed(err)),
        }
    });
    let add_files = move |files: Vec<PickedFile>| {
        leptos::task::spawn_local(async move {
            let mut accepted = Vec::new();
            // A file refused before it is read gets its row here (the engine never sees it).
            let refuse = |f: &PickedFile, why: Why| {
                ui.rows.update(|rows| {
                    rows.push(Row {
                        key: u64::MAX - rows.len() as u64,
                        id: None,
                        name: f.name.clone(),
                        size: Some(f.size),
                        pages: None,
                        chunks: None,
                        status: Status::Rejected(why),
                        from_bundle: None,
                    })
                })
            };
            for f in files {
                // A bundle dropped with the PDFs is imported (validated whole first).
                if f.name.to_lowercase().ends_with(".fonte") {
                    if let Err(too_large) = bundle_size(f.size) {
                        sharing.set(Sharing::Refused(too_large));
                        continue;
                    }
                    match read(&f.file).await {
                        Ok(bytes) => import(engine, sharing, bytes),
                        Err(e) => sharing.set(Sharing::Refused(AppError::File(e))),
                    }
                    continue;
                }
                if !is_pdf(&f) {
                    refuse(&f, Why::NotPdf);
                    continue;
                }
                // Refused before reading it into memory (the reader would refuse it too).
                let max = Limits::default().max_file_bytes;
                if f.size > max as f64 {
                    refuse(&f, Why::TooLarge(f.size as u64, max));
                    continue;
                }
                // Read when its turn comes (`Engine::add_dropped`), not all at once here.
                accepted.push((f.name, f.size, f.file));
            }
            // Files dropped while the library is still opening wait for it.
            loop {
                if let Some(e) = engine.get_value() {
                    e.add_dropped(accepted);
                    break;
                }
                if let Loaded::Failed(why) = ui.loaded.get_untracked() {
                    ui.notice.set(Some(Notice::FilesNotAdded(why)));
                    break;
                }
                gloo::timers::future::TimeoutFuture::new(50).await;
            }
        });
    };
    view! {
        <header class="top">
            <h1>"Fonte"</h1>
            <LanguagePicker />
            <LibrarySwitch ui=ui />
            <p class="tagline">{t!(i18n, tagline)}</p>
        </header>
        // Built around asking: the question and its answer first, the source page beside them,
        // the library, the drop zone and the settings in a side column (public/style.css); in
        // one column on a narrow screen, in that order, except that an empty library puts the
        // drop zone first.
        <main class="layout" data-empty=move || ui.rows.get().is_empty().to_string()>
            <div class="work">
                <Ask ui=ui engine=engine endpoint=endpoint selected=selected />
                <Search ui=ui engine=engine selected=selected />
            </div>
            <SourcePanel selected=selected engine=engine />
            <div class="side">
                <DropZone on_files=add_files />
                <Library ui=ui engine=engine />
                <EndpointSettingsView endpoint=endpoint />
                <Share ui=ui engine=engine state=sharing />
                <Settings ui=ui engine=engine />
            </div>
        </main>
    }
}
