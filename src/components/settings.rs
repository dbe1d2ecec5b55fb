//! Settings: which embedding model the library uses.

use leptos::prelude::*;

use crate::components::drop_zone::human_size;
use crate::components::library::EngineHandle;
use crate::i18n::*;
use crate::state::Ui;

/// Lists the installed models (description, languages, download size) and switches the
/// library to another one: every stored document is embedded again, with progress.
#[component]
pub fn Settings(ui: Ui, engine: EngineHandle) -> impl IntoView {
    let i18n = use_i18n();
    // The folder picked in the list; `None` while it is the one in use.
    let picked: RwSignal<Option<String>> = RwSignal::new(None);
    let current_dir = move || {
        let id = ui.model.get();
        ui.models
            .get()
            .into_iter()
            .find(|m| m.manifest.id == id)
            .map(|m| m.dir)
            .unwrap_or_default()
    };
    let switch = move |_| {
        let Some(dir) = picked.get_untracked() else {
            return;
        };
        picked.set(None);
        if let Some(e) = engine.get_value() {
            leptos::task::spawn_local(async move {
                if let Err(err) = e.switch_model(&dir).await {
                    ui.notice.set(Some(err.into()));
                }
            });
        }
    };
    view! {
        <section class="settings" aria-labelledby="settings-title">
            <h2 id="settings-title">{t!(i18n, settings_title)}</h2>
            <p>
                <label for="model-choice">{t!(i18n, model_label)}</label>
                " "
                <select
                    id="model-choice"
                    data-testid="model"
                    data-current=move || ui.model.get()
                    prop:value=move || picked.get().unwrap_or_else(current_dir)
                    on:change=move |ev| {
                        let dir = event_target_value(&ev);
                        picked.set((dir != current_dir()).then_some(dir));
                    }
                >
                    <For each=move || ui.models.get() key=|m| m.dir.clone() let:m>
                        <option value=m.dir.clone()>
                            {format!(
                                "{} ({}; {})",
                                m.manifest.description,
                                m.manifest.languages.join(", "),
                                human_size(m.bytes() as f64),
                            )}
                        </option>
                    </For>
                </select>
                " "
                <Show when=move || picked.get().is_some()>
                    <button type="button" data-testid="switch-model" on:click=switch>
                        {t!(i18n, switch_model)}
                    </button>
                </Show>
            </p>
            <p class="hint">{t!(i18n, model_hint)}</p>
        </section>
    }
}
