//! Fonte's core: everything between a PDF's bytes and cited evidence that does not need a
//! browser. It takes bytes and slices, never files or browser handles, so the same code runs
//! natively (tests, `fonte-cli`) and in the browser app compiled to wasm32.
//!
//! Grouped by stage: [`ingest`] (a PDF's pages into chunks, the reader worker's protocol, the
//! ingestion queue), [`search`] (chunking, tokens, BM25, vectors, fusion, the corpus),
//! [`answer`] (abstention, translation, the prompt, the LLM wire formats, citations, the one
//! asking pipeline) and [`share`] (the bundle format); [`library`] and [`store`] keep a
//! library between visits, [`embed`] runs the model, [`eval`] measures. A [`session`] is one
//! library at work, driven the same way by the page and the CLI.
//!
//! Platform services are traits here ([`embed::Embedder`]) with the runtime-specific part kept
//! at one module boundary: [`embed::native`] natively, the app's `platform::embed` in the browser.
//!
//! ```
//! use fonte_core::embed::{cosine, mean_pool_l2};
//! // Two tokens of dimension 2, the second one masked out: pooling ignores it.
//! let hidden = [3.0, 4.0, 100.0, 100.0];
//! let pooled = mean_pool_l2(&hidden, &[1, 0], 1, 2, 2);
//! assert!((cosine(&pooled[0], &[0.6, 0.8]) - 1.0).abs() < 1e-6);
//! ```
#![warn(missing_docs)]

pub mod answer;
pub mod embed;
pub mod error;
pub mod eval;
pub mod id;
pub mod ingest;
pub mod library;
pub mod search;
pub mod session;
pub mod share;
pub mod store;

pub use error::{Error, Result};
/// The PDF reader (its own crate, `fonte-pdf`): bytes -> pages of text, line boxes, report.
pub use fonte_pdf as pdf;
/// Text normalisation, shared with the reader.
pub use fonte_pdf::text;
pub use id::DocId;
