//! The app crate's one error type: browser failures turned into messages a person can act on.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::{JsCast, JsValue};

/// What can fail in the browser layer. Cloneable so it can sit in a signal.
#[derive(Debug, Clone, thiserror::Error)]
pub enum AppError {
    /// IndexedDB refused an operation (quota, private mode, blocked upgrade).
    #[error("browser storage: {0}")]
    Storage(String),
    /// IndexedDB refused a write because the site's quota is used up; nothing was written.
    #[error("browser storage full: {0}")]
    StorageFull(String),
    /// A static file of the app (model, runtime) could not be fetched from this site.
    #[error("could not load {url}: {reason}")]
    Asset {
        /// The file's URL.
        url: String,
        /// What the browser said.
        reason: String,
    },
    /// A hosted corpus's server was not read (what went wrong, typed).
    #[error("the corpus at {url} could not be read: {why:?}")]
    Hosted {
        /// The corpus's address.
        url: String,
        /// What went wrong.
        why: HostedError,
    },
    /// The browser could not read a file the user dropped or picked (what it said).
    #[error("could not read the file: {0}")]
    File(String),
    /// The reader worker stopped on a file (its memory budget, its time limit, a panic).
    #[error("the reader stopped on the file: {0:?}")]
    ReaderStopped(fonte_core::pdf::Stopped),
    /// The ONNX runtime failed to start or to run the model.
    #[error("embedding runtime: {0}")]
    Runtime(String),
    /// The translation worker failed (the question is searched as typed).
    #[error("translator: {0:?}")]
    Translator(TranslatorFailed),
    /// An error from the core.
    #[error(transparent)]
    Core(#[from] fonte_core::Error),
}

/// Why the translation worker gave no translation.
#[derive(Debug, Clone, PartialEq)]
pub enum TranslatorFailed {
    /// It panicked or could not start (what the browser or the panic said).
    Crashed(String),
    /// It said no (a model file's checksum, a message it did not expect).
    Refused(String),
    /// It did not answer within this many seconds.
    TimedOut {
        /// The limit.
        secs: u32,
    },
}

impl From<TranslatorFailed> for AppError {
    fn from(why: TranslatorFailed) -> Self {
        AppError::Translator(why)
    }
}

#[cfg(target_arch = "wasm32")]
impl AppError {
    /// Turns a thrown JavaScript value into readable text.
    pub fn js_text(value: &JsValue) -> String {
        if let Some(e) = value.dyn_ref::<js_sys::Error>() {
            return format!("{}: {}", String::from(e.name()), String::from(e.message()));
        }
        value
            .as_string()
            .or_else(|| {
                js_sys::JSON::stringify(value)
                    .ok()
                    .and_then(|s| s.as_string())
            })
            .unwrap_or_else(|| format!("{value:?}"))
    }
}

#[cfg(target_arch = "wasm32")]
impl From<indexed_db_futures::error::Error> for AppError {
    fn from(e: indexed_db_futures::error::Error) -> Self {
        use indexed_db_futures::error::Error;
        let text = e.to_string();
        // Chromium reports a full quota as a QuotaExceededError, or as the abort of the
        // transaction whose message names the quota.
        let full = match &e {
            Error::DomException(d) => {
                let d: &web_sys::DomException = d.as_ref().unchecked_ref();
                d.name() == "QuotaExceededError"
            }
            _ => false,
        } || text.to_lowercase().contains("quota");
        if full {
            AppError::StorageFull(text)
        } else {
            AppError::Storage(text)
        }
    }
}

#[cfg(target_arch = "wasm32")]
impl From<indexed_db_futures::error::OpenDbError> for AppError {
    fn from(e: indexed_db_futures::error::OpenDbError) -> Self {
        AppError::Storage(e.to_string())
    }
}

/// Errors compare by what they say: signals holding one skip an update that changes nothing
/// (the core's I/O errors have no equality of their own).
impl PartialEq for AppError {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

/// Why a hosted corpus's server was not read. Whatever a server says, Fonte reads no more
/// than it asked for, and gives up on one that stops sending.
#[derive(Debug, Clone, PartialEq)]
pub enum HostedError {
    /// No response: the network, a dead host, or a server that does not allow this page's
    /// origin (CORS; a browser does not say which). What the browser said.
    Unreachable(String),
    /// An HTTP status other than 200 or 206.
    Status(u16),
    /// No response, or nothing more of one, for this many seconds.
    TimedOut(u32),
    /// So slow that only `received` bytes came in `secs` seconds (a drip that never goes
    /// silent long enough to time out).
    TooSlow {
        /// Bytes received.
        received: u64,
        /// Seconds spent.
        secs: u32,
    },
    /// A partial answer without a `Content-Range`, or for another range than asked.
    WrongRange,
    /// More bytes than the range asked for.
    MoreThanAsked,
    /// Fewer bytes than the answer said: the connection ended early.
    Cut,
    /// The server ignores ranges and the whole file is larger than this many bytes.
    TooLarge(u64),
}

/// `Result` with [`AppError`].
pub type AppResult<T> = Result<T, AppError>;

impl From<fonte_core::share::bundle::BundleError> for AppError {
    fn from(e: fonte_core::share::bundle::BundleError) -> Self {
        AppError::Core(e.into())
    }
}
