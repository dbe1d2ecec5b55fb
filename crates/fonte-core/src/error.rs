//! The crate's one error type. Its variants are typed; the `String`s some carry are the
//! technical detail of whatever failed underneath (a runtime's or a parser's own words), never
//! advice or wording for a person: each front end words the variant in its own language
//! (the page's `components/errors.rs`, the CLI's messages).

use std::sync::Arc;

/// Everything that can go wrong in `fonte-core`. Cloneable so it can sit in a UI signal.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// The tokenizer file could not be read or a text could not be tokenized.
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    /// A model manifest is missing a field or disagrees with the model it describes.
    #[error("model manifest: {0}")]
    Manifest(String),
    /// The inference runtime failed to load the model or to run it.
    #[error("embedding model: {0}")]
    Model(String),
    /// A search index could not be built or read back.
    #[error("index: {0}")]
    Index(String),
    /// Stored library data could not be read or written.
    #[error("storage: {0}")]
    Store(String),
    /// The storage refused a write because it is full (the browser's quota for the site).
    #[error("storage full: {0}")]
    StoreFull(String),
    /// The library was built with another model or chunker: nothing can be added until it is
    /// re-indexed (two models' vectors are never mixed).
    #[error("the library was built with another model: re-index it first")]
    Mismatch,
    /// Another long operation is under way in the session (a model switch while files are
    /// being ingested): try again once it ends.
    #[error("another operation is under way")]
    Busy,
    /// The document named is not in the library (deleted meanwhile).
    #[error("no document {0} in the library")]
    NoDocument(crate::DocId),
    /// A group of versions was asked for with fewer than two documents or without a name.
    #[error("a group of versions needs two documents and a name")]
    Group,
    /// A bundle was refused (why, typed); nothing of it was used.
    #[error("bundle: {0}")]
    Bundle(#[from] crate::share::bundle::BundleError),
    /// A file could not be read (native only).
    #[error("i/o: {0}")]
    Io(Arc<std::io::Error>),
    /// JSON that Fonte wrote or shipped could not be parsed.
    #[error("json: {0}")]
    Json(Arc<serde_json::Error>),
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(Arc::new(e))
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Json(Arc::new(e))
    }
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
