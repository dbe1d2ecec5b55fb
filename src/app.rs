//! Top-level state and layout.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::components::drop_zone::{DropZone, PickedFile};
use crate::components::library::{EngineHandle, Library};
use crate::components::search::Search;
use crate::engine::Engine;
use crate::state::{Loaded, Row, Status, Ui};

fn is_pdf(f: &PickedFile) -> bool {
    f.name.to_lowercase().ends_with(".pdf") || f.file.type_() == "application/pdf"
}

async fn read(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| crate::AppError::js_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// The whole page: header, the document library, search and the drop zone.
#[component]
pub fn App() -> impl IntoView {
    let ui = Ui::new();
    let engine: EngineHandle = StoredValue::new_local(None);
    leptos::task::spawn_local(async move {
        match Engine::open(ui).await {
            Ok(e) => {
                engine.set_value(Some(e.clone()));
                crate::platform::storage::persist().await;
                e.refresh_storage().await;
            }
            Err(err) => ui.loaded.set(Loaded::Failed(err.to_string())),
        }
    });
    let add_files = move |files: Vec<PickedFile>| {
        leptos::task::spawn_local(async move {
            let mut accepted = Vec::new();
            for f in files {
                if !is_pdf(&f) {
                    ui.rows.update(|rows| {
                        rows.push(Row {
                            key: u64::MAX - rows.len() as u64,
                            id: None,
                            name: f.name.clone(),
                            size: Some(f.size),
                            pages: None,
                            chunks: None,
                            status: Status::Rejected("not a PDF file".into()),
                        })
                    });
                    continue;
                }
                match read(&f.file).await {
                    Ok(bytes) => accepted.push((f.name, f.size, bytes)),
                    Err(e) => ui
                        .notice
                        .set(Some(format!("{}: could not read ({e})", f.name))),
                }
            }
            // Files dropped while the library is still opening wait for it.
            loop {
                if let Some(e) = engine.get_value() {
                    e.add_files(accepted);
                    break;
                }
                if let Loaded::Failed(why) = ui.loaded.get_untracked() {
                    ui.notice.set(Some(format!("Files not added: {why}")));
                    break;
                }
                gloo::timers::future::TimeoutFuture::new(50).await;
            }
        });
    };
    view! {
        <header class="top">
            <h1>"Fonte"</h1>
            <p class="tagline">
                "Ask questions about your PDFs. Answers cite the document, page and passage, "
                "and nothing leaves this browser except what you send to the model you choose."
            </p>
        </header>
        <main>
            <Library ui=ui engine=engine />
            <DropZone on_files=add_files />
            <Search ui=ui engine=engine />
        </main>
    }
}
