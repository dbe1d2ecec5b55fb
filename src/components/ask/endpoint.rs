//! The endpoint settings: a preset, base URL, model, key (in memory unless "remember on this
//! device" is ticked, then with a visible "forget"), temperature, answer length and evidence
//! budget, and a connection test that lists the server's models.

use fonte_core::answer::ask::TranslateWith;
use fonte_core::answer::llm::preset::{preset, Key, IN_PAGE, PRESETS};
use fonte_core::answer::llm::{list_models, Failure};
use leptos::prelude::*;

use std::collections::{BTreeMap, BTreeSet};

use super::browser_model::BrowserModel;
use super::state::{
    origin_of, plain_http_elsewhere, remember_key, remembered_keys, EndpointSettings,
};
use super::words::failure_view;
use crate::i18n::*;
use crate::platform::browser_llm;
use crate::platform::llm::Fetch;

/// What the connection test found.
#[derive(Clone, PartialEq)]
enum Tested {
    Not,
    Testing,
    Models(Vec<String>),
    Failed(Failure),
    Incomplete,
}

/// The endpoint's signals, shared with the ask view.
#[derive(Clone, Copy)]
pub struct EndpointUi {
    /// Everything but the keys.
    pub settings: RwSignal<EndpointSettings>,
    /// Keys by the origin of the base URL they were typed for, in this page's memory: a key
    /// goes only to the origin it was typed for (changing the base URL to another server
    /// shows that server's key, empty until typed).
    keys: RwSignal<BTreeMap<String, String>>,
    /// Origins whose key is also kept on this device.
    remembered: RwSignal<BTreeSet<String>>,
}

impl EndpointUi {
    /// The settings kept on this device, and the keys the user asked to remember.
    pub fn load() -> Self {
        let kept = remembered_keys();
        Self {
            settings: RwSignal::new(EndpointSettings::load()),
            remembered: RwSignal::new(kept.keys().cloned().collect()),
            keys: RwSignal::new(kept),
        }
    }

    /// The origin of the base URL (tracked).
    pub fn origin(&self) -> Option<String> {
        self.settings.with(|s| origin_of(&s.base_url))
    }

    /// The key for the base URL's origin (tracked), empty when none was typed for it.
    pub fn key(&self) -> String {
        let origin = self.origin();
        self.keys
            .with(|k| origin.and_then(|o| k.get(&o).cloned()))
            .unwrap_or_default()
    }

    /// [`Self::key`], untracked (when asking).
    pub fn key_untracked(&self) -> String {
        untrack(|| self.key())
    }

    /// Sets the key of the base URL's origin (kept on this device too if remembered there).
    fn set_key(&self, key: String) {
        let Some(origin) = untrack(|| self.origin()) else {
            return;
        };
        if self.remembered.with_untracked(|r| r.contains(&origin)) {
            remember_key(&origin, Some(&key));
        }
        self.keys.update(|k| {
            k.insert(origin, key);
        });
    }

    /// Whether the key of the base URL's origin is kept on this device (tracked).
    fn is_remembered(&self) -> bool {
        let origin = self.origin();
        self.remembered
            .with(|r| origin.is_some_and(|o| r.contains(&o)))
    }

    /// Keeps the key of the base URL's origin on this device, or stops keeping it; `forget`
    /// also clears it from memory.
    fn remember(&self, on: bool, forget: bool) {
        let Some(origin) = untrack(|| self.origin()) else {
            return;
        };
        let key = untrack(|| self.key());
        remember_key(&origin, on.then_some(key.as_str()));
        self.remembered.update(|r| {
            if on {
                r.insert(origin.clone());
            } else {
                r.remove(&origin);
            }
        });
        if forget {
            self.keys.update(|k| {
                k.remove(&origin);
            });
        }
    }
}

fn number<T: std::str::FromStr>(ev: &leptos::ev::Event) -> Option<T> {
    event_target_value(ev).trim().parse().ok()
}

/// The `<option>` value of a translation choice.
fn translate_value(with: TranslateWith) -> &'static str {
    match with {
        TranslateWith::Here => "here",
        TranslateWith::Endpoint => "endpoint",
        TranslateWith::Off => "off",
    }
}

/// The settings form.
#[component]
pub fn EndpointSettingsView(endpoint: EndpointUi) -> impl IntoView {
    let i18n = use_i18n();
    let settings = endpoint.settings;
    let tested = RwSignal::new(Tested::Not);
    let edit = move |f: &dyn Fn(&mut EndpointSettings)| {
        settings.update(|s| f(s));
        settings.with_untracked(EndpointSettings::save);
        tested.set(Tested::Not);
    };
    let test = move |_| {
        // Listing needs no model: it is how the user finds one.
        let mut listing = settings.get_untracked();
        if listing.model.trim().is_empty() {
            listing.model = "-".into();
        }
        let Some(ep) = listing.endpoint(&endpoint.key_untracked()) else {
            tested.set(Tested::Incomplete);
            return;
        };
        tested.set(Tested::Testing);
        leptos::task::spawn_local(async move {
            let found = list_models(&Fetch::new(), &ep).await;
            tested.set(match found {
                Ok(m) => Tested::Models(m),
                Err(f) => Tested::Failed(f),
            });
        });
    };
    let needs_key = move || preset(&settings.get().preset).key == Key::Required;
    let in_page = move || settings.with(|s| s.preset == IN_PAGE);
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    view! {
        <section class="endpoint" aria-labelledby="endpoint-title" data-testid="endpoint">
            <h2 id="endpoint-title">{t!(i18n, endpoint_title)}</h2>
            <p class="hint">{t!(i18n, endpoint_hint)}</p>
            <div class="fields">
                <label>
                    {t!(i18n, endpoint_preset)}
                    <select
                        data-testid="endpoint-preset"
                        prop:value=move || settings.get().preset
                        on:change=move |ev| {
                            let p = preset(&event_target_value(&ev));
                            // The in-page model is named by its file; a server's by the user.
                            let in_page_model = browser_llm::chosen_file().map(|f| f.name());
                            edit(&|s| {
                                if p.id == IN_PAGE {
                                    s.model = in_page_model.clone().unwrap_or_default();
                                } else if s.preset == IN_PAGE {
                                    s.model.clear();
                                }
                                s.preset = p.id.into();
                                s.base_url = p.base_url.into();
                            });
                        }
                    >
                        {PRESETS.iter().map(|p| if p.id == IN_PAGE {
                            view! { <option value=p.id>{t!(i18n, preset_browser)}</option> }.into_any()
                        } else {
                            view! { <option value=p.id>{p.name}</option> }.into_any()
                        }).collect_view()}
                    </select>
                </label>
                <Show
                    when=move || !in_page()
                    fallback=move || view! { <BrowserModel settings=settings /> }
                >
                <label>
                    {t!(i18n, endpoint_base_url)}
                    <input
                        type="url"
                        data-testid="endpoint-base-url"
                        placeholder=move || preset(&settings.get().preset).base_url
                        prop:value=move || settings.get().base_url
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            edit(&|s| s.base_url = v.trim().to_string());
                        }
                    />
                </label>
                {move || settings.with(|s| plain_http_elsewhere(&s.base_url)).then(|| view! {
                    <p class="warning" data-testid="endpoint-plain-http">{t!(i18n, endpoint_plain_http)}</p>
                })}
                <label>
                    {t!(i18n, endpoint_model)}
                    <input
                        type="text"
                        list="endpoint-models"
                        data-testid="endpoint-model"
                        prop:value=move || settings.get().model
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            edit(&|s| s.model = v.trim().to_string());
                        }
                    />
                    <datalist id="endpoint-models">
                        {move || match tested.get() {
                            Tested::Models(m) => m.into_iter().map(|id| view! { <option value=id></option> }).collect_view().into_any(),
                            _ => ().into_any(),
                        }}
                    </datalist>
                </label>
                <label>
                    {t!(i18n, endpoint_key)}
                    {move || needs_key().then(|| view! { " " <span class="required">{t!(i18n, endpoint_key_required)}</span> })}
                    <input
                        type="password"
                        autocomplete="off"
                        data-testid="endpoint-key"
                        disabled=move || endpoint.origin().is_none()
                        prop:value=move || endpoint.key()
                        on:input=move |ev| endpoint.set_key(event_target_value(&ev))
                    />
                </label>
                {move || endpoint.origin().map(|origin| view! {
                    <p class="hint" data-testid="endpoint-key-origin">{t!(i18n, endpoint_key_origin, origin)}</p>
                })}
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="remember-key"
                        disabled=move || endpoint.origin().is_none()
                        prop:checked=move || endpoint.is_remembered()
                        on:change=move |ev| endpoint.remember(event_target_checked(&ev), false)
                    />
                    " "
                    {t!(i18n, endpoint_remember)}
                </label>
                <Show when=move || endpoint.is_remembered()>
                    <button
                        type="button"
                        data-testid="forget-key"
                        on:click=move |_| endpoint.remember(false, true)
                    >
                        {t!(i18n, endpoint_forget)}
                    </button>
                </Show>
                </Show>
                <label>
                    {t!(i18n, endpoint_temperature)}
                    <input
                        type="number" min="0" max="2" step="0.1"
                        data-testid="endpoint-temperature"
                        prop:value=move || settings.get().temperature.to_string()
                        on:change=move |ev| {
                            if let Some(v) = number::<f32>(&ev) {
                                edit(&|s| s.temperature = v.clamp(0.0, 2.0));
                            }
                        }
                    />
                </label>
                <label>
                    {t!(i18n, endpoint_max_tokens)}
                    <input
                        type="number" min="16" max="32768" step="16"
                        data-testid="endpoint-max-tokens"
                        prop:value=move || settings.get().max_tokens.to_string()
                        on:change=move |ev| {
                            if let Some(v) = number::<u32>(&ev) {
                                edit(&|s| s.max_tokens = v.clamp(16, 32768));
                            }
                        }
                    />
                </label>
                <label>
                    {t!(i18n, translate_with)}
                    <select
                        data-testid="translate-with"
                        prop:value=move || translate_value(settings.get().translation)
                        on:change=move |ev| {
                            let with = match event_target_value(&ev).as_str() {
                                "endpoint" => TranslateWith::Endpoint,
                                "off" => TranslateWith::Off,
                                _ => TranslateWith::Here,
                            };
                            edit(&|s| s.translation = with);
                        }
                    >
                        <option value="here">{t!(i18n, translate_here)}</option>
                        <option value="endpoint">{t!(i18n, translate_endpoint)}</option>
                        <option value="off">{t!(i18n, translate_off)}</option>
                    </select>
                </label>
                <label>
                    {t!(i18n, endpoint_budget)}
                    <input
                        type="number" min="500" max="100000" step="500"
                        data-testid="endpoint-budget"
                        prop:value=move || settings.get().budget_chars.to_string()
                        on:change=move |ev| {
                            if let Some(v) = number::<usize>(&ev) {
                                edit(&|s| s.budget_chars = v.clamp(500, 100_000));
                            }
                        }
                    />
                </label>
            </div>
            <p>
                <button type="button" data-testid="test-connection" on:click=test>{t!(i18n, endpoint_test)}</button>
                " "
                <span role="status" data-testid="connection" data-state=move || match tested.get() {
                    Tested::Not => "not",
                    Tested::Testing => "testing",
                    Tested::Models(_) => "ok",
                    Tested::Failed(_) | Tested::Incomplete => "failed",
                }>
                    {move || match tested.get() {
                        Tested::Not => ().into_any(),
                        Tested::Testing => t!(i18n, endpoint_testing).into_any(),
                        Tested::Models(m) => {
                            let n = m.len();
                            let list = m.join(", ");
                            t!(i18n, endpoint_models, n, list = list).into_any()
                        }
                        Tested::Failed(f) => failure_view(i18n, &f),
                        Tested::Incomplete => t!(i18n, endpoint_incomplete).into_any(),
                    }}
                </span>
            </p>
            <details class="cors">
                <summary>{t!(i18n, cors_title)}</summary>
                <p>{t!(i18n, cors_intro)} " " <code>{origin.clone()}</code></p>
                <ul>
                    <li>"llama-server: " {t!(i18n, cors_llamacpp)}</li>
                    <li>"Ollama: " <code>{format!("OLLAMA_ORIGINS={origin} ollama serve")}</code></li>
                    <li>"LM Studio: " <code>"lms server start --cors"</code></li>
                    <li>"vLLM: " <code>{format!("vllm serve <model> --allowed-origins '[\"{origin}\"]'")}</code></li>
                </ul>
                <p>{t!(i18n, cors_local_network)}</p>
            </details>
        </section>
    }
}
