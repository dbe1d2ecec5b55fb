//! The settings of the model that runs in this browser ("This browser" preset): pick any
//! instruct GGUF file on the disk (refused with why when it is not a GGUF file or is too large
//! for the tab), see it load when a question first needs it (or at once, with *Load now*), and
//! keep it on this device only if asked, with its size and a way to remove it. Answers then
//! come from the page itself: nothing is sent anywhere.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, HtmlInputElement};

use super::state::EndpointSettings;
use crate::i18n::*;
use crate::platform::browser_llm::{self, Kept, LoadRefused, ModelState};

fn mb(bytes: f64) -> String {
    format!("{:.0} MB", bytes / 1e6)
}

/// The in-page model's settings.
#[component]
pub fn BrowserModel(settings: RwSignal<EndpointSettings>) -> impl IntoView {
    let i18n = use_i18n();
    let state = RwSignal::new(browser_llm::state());
    // The model loads when a question first needs it (in the ask pipeline's transport): the
    // status follows it there.
    browser_llm::watch(move |s| {
        let _ = state.try_set(s.clone());
    });
    let keep = RwSignal::new(false);
    let kept = RwSignal::new(Vec::<Kept>::new());
    let kept_files = StoredValue::new_local(Vec::<File>::new());
    let keep_failed = RwSignal::new(None::<String>);
    let refresh = move || {
        leptos::task::spawn_local(async move {
            let list = browser_llm::kept().await;
            kept.set(list.iter().map(|(k, _)| k.clone()).collect());
            kept_files.set_value(list.into_iter().map(|(_, f)| f).collect());
        });
    };
    let keep_now = move |file: File| {
        leptos::task::spawn_local(async move {
            match browser_llm::keep(&file).await {
                Ok(()) => keep_failed.set(None),
                Err(why) => keep_failed.set(Some(why)),
            }
            refresh();
        });
    };
    let choose = move |file: File, keep_it: bool| {
        leptos::task::spawn_local(async move {
            if browser_llm::choose(file.clone()).await.is_ok() {
                settings.update(|s| s.model = file.name());
                settings.with_untracked(EndpointSettings::save);
                // Kept only when asked.
                if keep_it {
                    keep_now(file);
                }
            }
        });
    };
    // A model kept on this device and named in the settings is picked again (not loaded).
    leptos::task::spawn_local(async move {
        let list = browser_llm::kept().await;
        kept.set(list.iter().map(|(k, _)| k.clone()).collect());
        let wanted = settings.with_untracked(|s| s.model.clone());
        let found = list
            .iter()
            .find(|(k, _)| k.name == wanted)
            .map(|(_, f)| f.clone());
        kept_files.set_value(list.into_iter().map(|(_, f)| f).collect());
        if let (ModelState::None, Some(file)) = (browser_llm::state(), found) {
            choose(file, false);
        }
    });
    let load_now = move |_| {
        leptos::task::spawn_local(async move {
            let _ = browser_llm::ensure_loaded().await;
        });
    };
    let pick = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        // Cleared, so picking the same file again is a change too.
        input.set_value("");
        choose(file, keep.get_untracked());
    };
    let use_kept = move |name: String| {
        let file = kept_files.with_value(|fs| fs.iter().find(|f| f.name() == name).cloned());
        if let Some(file) = file {
            choose(file, false);
        }
    };
    let forget = move |name: String| {
        leptos::task::spawn_local(async move {
            let _ = browser_llm::forget(&name).await;
            refresh();
        });
    };
    let status = move || match state.get() {
        ModelState::None => ("none", t!(i18n, browser_model_none).into_any()),
        ModelState::Chosen { name, bytes } => (
            "chosen",
            view! { {name} " (" {mb(bytes)} "): " {t!(i18n, browser_model_chosen)} }.into_any(),
        ),
        ModelState::Loading { name, bytes } => (
            "loading",
            view! { {t!(i18n, browser_model_loading)} " " {name} " (" {mb(bytes)} ")…" }.into_any(),
        ),
        ModelState::Ready(l) => {
            let threads = if l.threads {
                t_string!(i18n, browser_model_threads)
            } else {
                t_string!(i18n, browser_model_one_thread)
            };
            (
                "ready",
                view! { {t!(i18n, browser_model_ready)} " " {l.name} " (" {mb(l.bytes)} ", " {threads} ")" }
                    .into_any(),
            )
        }
        ModelState::Refused(why) => (
            "refused",
            match why {
                LoadRefused::NotGguf => t!(i18n, browser_model_not_gguf).into_any(),
                LoadRefused::TooLarge { bytes, limit } => view! {
                    {t!(i18n, browser_model_too_large)} " (" {mb(bytes)} " > " {mb(limit)} ")"
                }
                .into_any(),
                LoadRefused::Failed(detail) => t!(i18n, browser_model_failed, detail).into_any(),
            },
        ),
    };
    view! {
        <div class="browser-model" data-testid="browser-model" data-state=move || status().0>
            <p class="hint">{t!(i18n, browser_model_hint)}</p>
            <label>
                {t!(i18n, browser_model_file)}
                <input type="file" accept=".gguf" data-testid="browser-model-file" on:change=pick />
            </label>
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="browser-model-keep"
                    prop:checked=move || keep.get()
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        keep.set(on);
                        // Ticked with a model picked: keep that one now.
                        if let (true, Some(file)) = (on, browser_llm::chosen_file()) {
                            if !kept.get_untracked().iter().any(|k| k.name == file.name()) {
                                keep_now(file);
                            }
                        }
                    }
                />
                " "
                {t!(i18n, browser_model_keep)}
            </label>
            <p role="status" data-testid="browser-model-status">{move || status().1}</p>
            <Show when=move || matches!(state.get(), ModelState::Chosen { .. })>
                <button type="button" data-testid="browser-model-load" on:click=load_now>
                    {t!(i18n, browser_model_load)}
                </button>
            </Show>
            {move || keep_failed.get().map(|detail| view! {
                <p class="error" data-testid="browser-model-keep-failed">{t!(i18n, browser_model_keep_failed, detail)}</p>
            })}
            <Show when=move || !kept.get().is_empty()>
                <p>{t!(i18n, browser_model_kept)}</p>
                <ul data-testid="browser-model-kept">
                    <For each=move || kept.get() key=|k| k.name.clone() let:k>
                        {
                            let (name, use_name, forget_name) = (k.name.clone(), k.name.clone(), k.name.clone());
                            view! {
                                <li data-testid="kept-model">
                                    {name} " (" {mb(k.bytes)} ") "
                                    <button type="button" data-testid="kept-model-use" on:click=move |_| use_kept(use_name.clone())>
                                        {t!(i18n, browser_model_use)}
                                    </button>
                                    " "
                                    <button type="button" data-testid="kept-model-remove" on:click=move |_| forget(forget_name.clone())>
                                        {t!(i18n, browser_model_remove)}
                                    </button>
                                </li>
                            }
                        }
                    </For>
                </ul>
            </Show>
        </div>
    }
}

/// The file input's element (`on:change`'s target).
fn event_target(ev: &leptos::ev::Event) -> HtmlInputElement {
    ev.target()
        .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        .expect("a file input")
}
