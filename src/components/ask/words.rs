//! What the page says about a failed request: what happened and what to do.

use fonte_core::answer::llm::Failure;
use leptos::prelude::*;
use leptos_i18n::I18nContext;

use crate::i18n::*;

/// The failure, in the interface language.
pub fn failure_view(i18n: I18nContext<Locale>, f: &Failure) -> AnyView {
    match f.clone() {
        Failure::Unreachable { detail } => t!(i18n, fail_unreachable, detail = detail).into_any(),
        Failure::Unauthorized { status, detail } => {
            t!(i18n, fail_unauthorized, status, detail = detail).into_any()
        }
        Failure::NotFound { detail } => t!(i18n, fail_not_found, detail = detail).into_any(),
        Failure::RateLimited {
            retry_after_secs: Some(n),
        } => t!(i18n, fail_rate_limited_after, n).into_any(),
        Failure::RateLimited { .. } => t!(i18n, fail_rate_limited).into_any(),
        Failure::Rejected { status, detail } => {
            t!(i18n, fail_rejected, status, detail = detail).into_any()
        }
        Failure::Server { status, detail } => {
            t!(i18n, fail_server, status, detail = detail).into_any()
        }
        Failure::Malformed { detail } => t!(i18n, fail_malformed, detail = detail).into_any(),
        Failure::Cut => t!(i18n, fail_cut).into_any(),
        Failure::Redirected => t!(i18n, fail_redirected).into_any(),
        Failure::TimedOut => t!(i18n, fail_timed_out).into_any(),
        Failure::Aborted => t!(i18n, fail_stopped).into_any(),
        Failure::NoModel => t!(i18n, fail_no_model).into_any(),
    }
}
