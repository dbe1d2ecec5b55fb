//! Fonte in the browser: the Leptos app ([`app`], [`components`]) and thin adapters over browser
//! services ([`platform`]). The logic lives in `fonte-core`; this crate converts types and errors
//! at the edge.
#![cfg(target_arch = "wasm32")]

pub mod app;
pub mod components;
pub mod engine;
pub mod error;
pub mod platform;
pub mod state;

pub use error::{AppError, AppResult};
