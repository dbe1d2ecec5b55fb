//! The library behind the page, as the components see it: [`Engine`] drives the core
//! [`Session`] (the IndexedDB library, its ingestion queue, the [`ModelService`] of its model)
//! and hands what the core reports to [`rows`], which turns it into the signals of
//! [`crate::state::Ui`]. Library management (delete, clear, model switch) is in `manage`,
//! dates and versions in `versions`.
//! Only [`rows`] compiles natively (and is unit-tested there); the rest needs the browser.

pub mod rows;

#[cfg(target_arch = "wasm32")]
mod ask;
#[cfg(target_arch = "wasm32")]
mod hosted;
#[cfg(target_arch = "wasm32")]
mod manage;
#[cfg(target_arch = "wasm32")]
mod neighbours;
#[cfg(target_arch = "wasm32")]
pub(crate) use neighbours::SLICE_PAIRS;
#[cfg(target_arch = "wasm32")]
mod queue;
#[cfg(target_arch = "wasm32")]
mod service;
#[cfg(target_arch = "wasm32")]
mod share;
#[cfg(target_arch = "wasm32")]
mod versions;
#[cfg(target_arch = "wasm32")]
pub use page::*;
#[cfg(target_arch = "wasm32")]
pub use service::ModelService;

#[cfg(target_arch = "wasm32")]
mod page;
