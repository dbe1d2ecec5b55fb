//! Fonte in the browser: the Leptos app ([`app`], [`components`]) and thin adapters over browser
//! services ([`platform`]). The logic lives in `fonte-core`; this crate converts types and errors
//! at the edge. What the page shows ([`state`], [`models`], the engine's [`engine::rows`]) also
//! compiles natively, where `cargo test` checks it against the core's fake services; the rest
//! exists only in the browser.

// Generates `i18n` from locales/*.json. The build.rs code generation that replaces this macro
// needs a build script for a crate that also builds natively; the macro does the same work.
#[cfg(target_arch = "wasm32")]
#[allow(deprecated)]
mod i18n_gen {
    leptos_i18n::load_locales!();
}
#[cfg(target_arch = "wasm32")]
pub use i18n_gen::i18n;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod bench;
#[cfg(target_arch = "wasm32")]
pub mod components;
pub mod engine;
pub mod error;
pub mod models;
#[cfg(target_arch = "wasm32")]
pub mod platform;
pub mod state;

pub use error::{AppError, AppResult};
