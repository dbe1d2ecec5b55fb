//! The document library.

use leptos::prelude::*;

/// The list of indexed documents; empty until ingestion lands.
#[component]
pub fn Library() -> impl IntoView {
    view! {
        <section class="library" aria-labelledby="library-title">
            <h2 id="library-title">"Your documents"</h2>
            <p class="empty" data-testid="library-empty">
                "No documents yet. Drop PDFs below to add them to your library."
            </p>
        </section>
    }
}
