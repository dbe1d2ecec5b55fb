//! Fonte in the browser: the Leptos app ([`app`], [`components`]) and thin adapters over browser
//! services ([`platform`]). The logic lives in `fonte-core`; this crate converts types and errors
//! at the edge.
#![cfg(target_arch = "wasm32")]

// Generates `i18n` from locales/*.json. The build.rs code generation that replaces this macro
// needs a build script for a crate that also builds natively; the macro does the same work.
#[allow(deprecated)]
mod i18n_gen {
    leptos_i18n::load_locales!();
}
pub use i18n_gen::i18n;

pub mod app;
pub mod bench;
pub mod components;
pub mod engine;
pub mod error;
pub mod models;
pub mod platform;
pub mod state;

pub use error::{AppError, AppResult};
