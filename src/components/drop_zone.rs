//! Where PDFs come in: drag and drop, or a file picker (keyboard users).

use leptos::prelude::*;

use crate::i18n::*;
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, FileList, HtmlInputElement};

/// A file the user gave us: the browser handle and what we show about it.
#[derive(Clone)]
pub struct PickedFile {
    /// The file name as the browser reports it (shown as text, never as HTML).
    pub name: String,
    /// Size in bytes.
    pub size: f64,
    /// The browser's handle, read later by ingestion.
    pub file: web_sys::File,
}

fn files_of(list: Option<FileList>) -> Vec<PickedFile> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|file| PickedFile {
            name: file.name(),
            size: file.size(),
            file,
        })
        .collect()
}

/// Sizes as people read them.
pub fn human_size(bytes: f64) -> String {
    match bytes {
        b if b >= 1024.0 * 1024.0 * 1024.0 => format!("{:.1} GB", b / (1024.0 * 1024.0 * 1024.0)),
        b if b >= 1024.0 * 1024.0 => format!("{:.1} MB", b / (1024.0 * 1024.0)),
        b if b >= 1024.0 => format!("{:.0} KB", b / 1024.0),
        b => format!("{b} B"),
    }
}

/// Accepts PDFs by drop or picker; the library lists what was received.
#[component]
pub fn DropZone(
    /// Called with each new group of files.
    on_files: impl Fn(Vec<PickedFile>) + Clone + 'static,
) -> impl IntoView {
    let i18n = use_i18n();
    let (hover, set_hover) = signal(false);
    let max_mb = fonte_core::pdf::Limits::default().max_file_bytes / 1_000_000;
    let on_drop = {
        let on_files = on_files.clone();
        move |ev: DragEvent| {
            ev.prevent_default();
            set_hover.set(false);
            on_files(files_of(ev.data_transfer().and_then(|dt| dt.files())));
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = ev.target().unwrap().unchecked_into();
        on_files(files_of(input.files()));
        // Let the same file be picked again later.
        input.set_value("");
    };
    view! {
        <section
            class="drop-zone"
            class:hover=hover
            data-testid="drop-zone"
            aria-labelledby="drop-title"
            on:dragover=move |ev: DragEvent| {
                ev.prevent_default();
                set_hover.set(true);
            }
            on:dragleave=move |_| set_hover.set(false)
            on:drop=on_drop
        >
            <h2 id="drop-title">{t!(i18n, add_title)}</h2>
            <p>{t!(i18n, drop_here)}</p>
            <input
                id="file-input"
                class="visually-hidden"
                type="file"
                multiple=true
                accept=".pdf,.PDF,application/pdf"
                on:change=on_change
            />
            <label class="button" for="file-input">{t!(i18n, choose_files)}</label>
            <p class="hint">{t!(i18n, size_limit, max = max_mb)}</p>
        </section>
    }
}
