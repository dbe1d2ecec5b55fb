//! Why asking failed, typed, so the page and the CLI can say what happened and what to do;
//! and the failure an HTTP status stands for.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why asking failed: what happened, so the page can say what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Failure {
    /// No response at all: the server is not running, the address is wrong, or the browser
    /// blocked the response (CORS; a browser does not say which).
    #[error("the endpoint could not be reached: {detail}")]
    Unreachable {
        /// What the platform said.
        detail: String,
    },
    /// 401 or 403: the key is missing, wrong, or not allowed this model.
    #[error("the endpoint refused the key (HTTP {status}): {detail}")]
    Unauthorized {
        /// The status.
        status: u16,
        /// The server's message.
        detail: String,
    },
    /// 404: no such model, or the base URL is not the API's.
    #[error("not found (HTTP 404): {detail}")]
    NotFound {
        /// The server's message.
        detail: String,
    },
    /// 429: too many requests; try again after `retry_after_secs` when the server said.
    #[error("rate limited (HTTP 429), retry after {retry_after_secs:?} s")]
    RateLimited {
        /// The Retry-After header, in seconds.
        retry_after_secs: Option<u32>,
    },
    /// Another 4xx: the server did not accept the request as sent.
    #[error("the endpoint rejected the request (HTTP {status}): {detail}")]
    Rejected {
        /// The status.
        status: u16,
        /// The server's message.
        detail: String,
    },
    /// 5xx, or an error event inside the stream.
    #[error("the endpoint failed (HTTP {status}): {detail}")]
    Server {
        /// The status (200 for an error inside a stream).
        status: u16,
        /// The server's message.
        detail: String,
    },
    /// The response is not the API's stream (not SSE, or events that are not its JSON).
    #[error("the endpoint's reply is not a stream this API sends: {detail}")]
    Malformed {
        /// What did not parse.
        detail: String,
    },
    /// The endpoint answered with a redirect. Never followed: the key and the question go only
    /// to the address the user set (a browser keeps some headers across origins, `x-api-key`
    /// among them), so a moved endpoint must be set at its new address.
    #[error("the endpoint redirected the request elsewhere; not followed")]
    Redirected,
    /// The stream ended before the answer did.
    #[error("the answer was cut off mid-way")]
    Cut,
    /// No response, or no more of it, within the time limit.
    #[error("the endpoint did not answer in time")]
    TimedOut,
    /// Stopped by the user.
    #[error("stopped")]
    Aborted,
    /// The model that runs in the page is not loaded (a page reload frees it).
    #[error("no model is loaded in this browser")]
    NoModel,
}

/// The message in an error body (`{"error": {"message": …}}` in both APIs, or a string),
/// else the body itself, cut short.
pub(super) fn error_detail(body: &str) -> String {
    let from_json = serde_json::from_str::<Value>(body).ok().and_then(|v| {
        let e = v.get("error")?;
        e.get("message")
            .and_then(Value::as_str)
            .or_else(|| e.as_str())
            .map(String::from)
    });
    let text = from_json.unwrap_or_else(|| body.trim().to_string());
    text.chars().take(300).collect()
}

/// The failure an HTTP status other than 2xx stands for.
pub fn failure_for_status(status: u16, retry_after: Option<&str>, body: &str) -> Failure {
    let detail = error_detail(body);
    match status {
        401 | 403 => Failure::Unauthorized { status, detail },
        404 => Failure::NotFound { detail },
        300..=399 => Failure::Redirected,
        429 => Failure::RateLimited {
            retry_after_secs: retry_after.and_then(|s| s.trim().parse().ok()),
        },
        400..=499 => Failure::Rejected { status, detail },
        _ => Failure::Server { status, detail },
    }
}
