//! Dates and versions on the page: each document's publication date with where it came from
//! (editable), its place among its versions, the groups of versions the library proposes
//! (confirmed or declined by the person, never assumed), and searching older versions too.
//! Every name and title is shown as text.

use fonte_core::pdf::dates::{DateSource, PubDate};
use fonte_core::search::corpus::{DateFrom, VersionNote};
use fonte_core::DocId;
use leptos::prelude::*;
use leptos_i18n::I18nContext;

use crate::components::library::EngineHandle;
use crate::engine::Engine;
use crate::i18n::*;
use crate::state::{DocVersion, Ui};

/// A date in the interface language, as precise as it is known ("February 2025", "10 de
/// fevereiro de 2025"), as the browser's `Intl` writes dates in that language.
pub fn date_text(i18n: I18nContext<Locale>, d: PubDate) -> String {
    let Some(month) = d.month else {
        return d.year.to_string();
    };
    let date = js_sys::Date::new_with_year_month_day(
        d.year as u32,
        month as i32 - 1,
        d.day.unwrap_or(1) as i32,
    );
    let options = js_sys::Object::new();
    let set = |k: &str, v: &str| {
        let _ = js_sys::Reflect::set(&options, &k.into(), &v.into());
    };
    set("year", "numeric");
    set("month", "long");
    if d.day.is_some() {
        set("day", "numeric");
    }
    let locale = i18n.get_locale_untracked().as_str();
    String::from(date.to_locale_date_string(locale, &options))
}

/// Where a publication date came from.
fn from_view(i18n: I18nContext<Locale>, from: DateFrom) -> AnyView {
    match from {
        DateFrom::Given => t!(i18n, date_from_given).into_any(),
        DateFrom::File(DateSource::Text { page }) => t!(i18n, date_from_page, page).into_any(),
        DateFrom::File(DateSource::InfoCreated | DateSource::XmpCreated) => {
            t!(i18n, date_from_created).into_any()
        }
        DateFrom::File(DateSource::InfoModified | DateSource::XmpModified) => {
            t!(i18n, date_from_modified).into_any()
        }
        DateFrom::File(DateSource::XmpPublished) => t!(i18n, date_from_published).into_any(),
    }
}

/// A list of dates ("March 2023, 2021").
pub fn dates_text(i18n: I18nContext<Locale>, dates: &[PubDate]) -> String {
    dates
        .iter()
        .map(|d| date_text(i18n, *d))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a document is among its versions; `by_name` names the current one's file, for an
/// older one.
pub fn note_view(
    i18n: I18nContext<Locale>,
    note: &VersionNote,
    by_name: Option<String>,
) -> AnyView {
    match note {
        VersionNote::Current { date, supersedes } => {
            let (date, older) = (date_text(i18n, *date), dates_text(i18n, supersedes));
            t!(i18n, version_current, date, older).into_any()
        }
        VersionNote::Superseded { date, by } => {
            let (date, by) = (date_text(i18n, *date), date_text(i18n, *by));
            match by_name {
                Some(name) => t!(i18n, version_superseded, date, name, by).into_any(),
                None => t!(i18n, version_superseded_short, date, by).into_any(),
            }
        }
        VersionNote::Undecided { date } => {
            let date = date.map_or_else(
                || t_string!(i18n, date_none).to_string(),
                |d| date_text(i18n, d),
            );
            t!(i18n, version_undecided, date).into_any()
        }
    }
}

/// Runs `f` on the engine, showing its error as the page's notice.
fn on_engine<F, Fut>(ui: Ui, engine: EngineHandle, f: F)
where
    F: FnOnce(std::rc::Rc<Engine>) -> Fut + 'static,
    Fut: std::future::Future<Output = crate::AppResult<()>> + 'static,
{
    if let Some(e) = engine.get_value() {
        leptos::task::spawn_local(async move {
            if let Err(err) = f(e).await {
                ui.notice.set(Some(err.into()));
            }
        });
    }
}

/// The groups of versions the library proposes, each to confirm or decline.
#[component]
pub fn Proposals(ui: Ui, engine: EngineHandle) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <For
            each=move || ui.versions.get().proposals
            key=|p| p.ids.clone()
            children=move |p| {
                let undated = p.members.iter().any(|(_, d)| d.is_none());
                let (keep, decline) = (p.ids.clone(), p.ids.clone());
                let name = p.name.clone();
                view! {
                    <div class="versions-proposal" data-testid="versions-proposal" role="status">
                        <p>{t!(i18n, versions_proposal, name = p.name.clone())}</p>
                        <ul>
                            {p.members
                                .into_iter()
                                .map(|(file, date)| {
                                    let date = date.map_or_else(
                                        || t_string!(i18n, date_none).to_string(),
                                        |d| date_text(i18n, d),
                                    );
                                    view! { <li data-testid="versions-member">{file} " (" {date} ")"</li> }
                                })
                                .collect_view()}
                        </ul>
                        {undated.then(|| view! { <p class="hint">{t!(i18n, versions_undated_hint)}</p> })}
                        <button
                            type="button"
                            data-testid="versions-accept"
                            on:click=move |_| {
                                let (ids, name) = (keep.clone(), name.clone());
                                on_engine(ui, engine, move |e| async move { e.group_versions(&ids, &name).await });
                            }
                        >
                            {t!(i18n, versions_keep_newest)}
                        </button>
                        " "
                        <button
                            type="button"
                            class="link"
                            data-testid="versions-decline"
                            on:click=move |_| {
                                let ids = decline.clone();
                                on_engine(ui, engine, move |e| async move { e.declare_distinct(&ids).await });
                            }
                        >
                            {t!(i18n, versions_not)}
                        </button>
                    </div>
                }
            }
        />
    }
}

/// A stored document's date (with its source, editable) and its place among its versions.
#[component]
pub fn DocDate(ui: Ui, engine: EngineHandle, id: DocId, name: String) -> impl IntoView {
    let i18n = use_i18n();
    let editing = RwSignal::new(false);
    let typed = RwSignal::new(String::new());
    let invalid = RwSignal::new(false);
    let shown = {
        let id = id.clone();
        move || ui.versions.get().docs.get(&id).cloned()
    };
    let date_line = {
        let shown = shown.clone();
        move || {
            let v: Option<DocVersion> = shown();
            let published = v.and_then(|v| v.published);
            let iso = published
                .map(|p| fonte_core::answer::prompt::iso(p.date))
                .unwrap_or_default();
            let text = match published {
                Some(p) => view! { {date_text(i18n, p.date)} " (" {from_view(i18n, p.from)} ")" }
                    .into_any(),
                None => t!(i18n, date_none).into_any(),
            };
            view! { <span class="doc-date" data-testid="doc-date" data-date=iso>{text}</span> }
        }
    };
    let version_line = {
        let id = id.clone();
        move || {
            let v = shown()?;
            let note = v.note.clone()?;
            let standing = match note {
                VersionNote::Current { .. } => "current",
                VersionNote::Superseded { .. } => "superseded",
                VersionNote::Undecided { .. } => "undecided",
            };
            let text = note_view(i18n, &note, v.superseded_by.clone());
            let id = id.clone();
            Some(view! {
                <br />
                <span class="doc-version" data-testid="doc-version" data-standing=standing>{text}</span>
                " "
                <button
                    type="button"
                    class="link"
                    data-testid="version-leave"
                    on:click=move |_| {
                        let id = id.clone();
                        on_engine(ui, engine, move |e| async move { e.leave_group(&id).await });
                    }
                >
                    {t!(i18n, version_leave)}
                </button>
            })
        }
    };
    let save = {
        let id = id.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let Some(date) = PubDate::from_iso(&typed.get_untracked()) else {
                invalid.set(true);
                return;
            };
            invalid.set(false);
            editing.set(false);
            let id = id.clone();
            on_engine(ui, engine, move |e| async move {
                e.set_published(&id, Some(date)).await
            });
        }
    };
    let reset = move |_| {
        editing.set(false);
        let id = id.clone();
        on_engine(ui, engine, move |e| async move {
            e.set_published(&id, None).await
        });
    };
    let label = move || format!("{name}: {}", t_string!(i18n, date_label));
    view! {
        <span class="doc-about">
            {date_line}
            " "
            <Show
                when=move || editing.get()
                fallback=move || view! {
                    <button type="button" class="link" data-testid="doc-date-edit" on:click=move |_| {
                        typed.set(String::new());
                        editing.set(true);
                    }>
                        {t!(i18n, date_edit)}
                    </button>
                }
            >
                <form class="date-edit" on:submit=save.clone()>
                    <input
                        type="text"
                        inputmode="numeric"
                        data-testid="doc-date-input"
                        aria-label=label.clone()
                        placeholder="2025-02-10"
                        prop:value=move || typed.get()
                        on:input=move |ev| typed.set(event_target_value(&ev))
                    />
                    " "
                    <button type="submit" data-testid="doc-date-save">{t!(i18n, date_save)}</button>
                    " "
                    <button type="button" class="link" data-testid="doc-date-reset" on:click=reset.clone()>
                        {t!(i18n, date_reset)}
                    </button>
                    <Show when=move || invalid.get()>
                        <span class="error" role="alert" data-testid="doc-date-invalid">{t!(i18n, date_invalid)}</span>
                    </Show>
                </form>
            </Show>
            {version_line}
        </span>
    }
}

/// Searching (and answering from) older versions too; offered once a group has one.
#[component]
pub fn AllVersions(ui: Ui) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <Show when=move || ui.versions.get().any_superseded>
            <label class="all-versions">
                <input
                    type="checkbox"
                    data-testid="all-versions"
                    prop:checked=move || ui.all_versions.get()
                    on:change=move |ev| {
                        ui.all_versions.set(event_target_checked(&ev));
                        // Searches re-run with the other evidence.
                        ui.generation.update(|g| *g += 1);
                    }
                />
                " "
                {t!(i18n, all_versions)}
            </label>
        </Show>
    }
}
