//! Top-level state and layout.

use leptos::prelude::*;

use crate::components::drop_zone::{DropZone, PickedFile};
use crate::components::library::Library;

/// The whole page: header, the document library and the drop zone.
#[component]
pub fn App() -> impl IntoView {
    let (picked, set_picked) = signal(Vec::<PickedFile>::new());
    let add_files = move |files: Vec<PickedFile>| set_picked.update(|p| p.extend(files));
    view! {
        <header class="top">
            <h1>"Fonte"</h1>
            <p class="tagline">
                "Ask questions about your PDFs. Answers cite the document, page and passage, "
                "and nothing leaves this browser except what you send to the model you choose."
            </p>
        </header>
        <main>
            <Library />
            <DropZone
                picked=picked
                on_files=add_files
            />
        </main>
    }
}
