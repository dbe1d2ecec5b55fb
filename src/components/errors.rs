//! What an error or a notice says, in the interface language. The core and the browser layer
//! give typed errors (with the technical detail of whatever failed underneath, which is shown
//! as such); every word around it is chosen here.

use fonte_core::pdf::Stopped;
use fonte_core::share::bundle::BundleError;
use leptos::prelude::*;
use leptos_i18n::I18nContext;

use crate::error::{HostedError, TranslatorFailed};
use crate::i18n::*;
use crate::state::Notice;
use crate::AppError;

/// `e` for a person, in the interface language.
pub fn error_view(i18n: I18nContext<Locale>, e: &AppError) -> AnyView {
    use fonte_core::Error as Core;
    match e.clone() {
        AppError::Storage(detail) | AppError::Core(Core::Store(detail)) => {
            t!(i18n, err_storage, detail).into_any()
        }
        AppError::StorageFull(_) | AppError::Core(Core::StoreFull(_)) => {
            t!(i18n, err_storage_full).into_any()
        }
        AppError::Asset { url, reason } => t!(i18n, err_asset, url, detail = reason).into_any(),
        AppError::File(detail) => t!(i18n, err_file, detail).into_any(),
        AppError::Hosted { url, why } => {
            view! { {t!(i18n, err_hosted, url)} " " {hosted_view(i18n, &why)} }.into_any()
        }
        AppError::ReaderStopped(why) => {
            view! { {t!(i18n, bundle_refused)} " " {stopped_view(i18n, &why)} }.into_any()
        }
        AppError::Runtime(detail) => t!(i18n, err_runtime, detail).into_any(),
        AppError::Translator(why) => match why {
            TranslatorFailed::Crashed(detail) | TranslatorFailed::Refused(detail) => {
                t!(i18n, err_translator, detail).into_any()
            }
            TranslatorFailed::TimedOut { secs } => {
                t!(i18n, err_translator_timed_out, secs).into_any()
            }
        },
        AppError::Core(core) => match core {
            Core::Tokenizer(detail) => t!(i18n, err_tokenizer, detail).into_any(),
            Core::Manifest(detail) => t!(i18n, err_manifest, detail).into_any(),
            Core::Model(detail) => t!(i18n, err_model, detail).into_any(),
            Core::Index(detail) => t!(i18n, err_index, detail).into_any(),
            Core::Mismatch => t!(i18n, reindex_first).into_any(),
            Core::Busy => t!(i18n, err_busy).into_any(),
            Core::NoDocument(_) => t!(i18n, err_no_document).into_any(),
            Core::Group => t!(i18n, err_group).into_any(),
            Core::Bundle(b) => bundle_refusal(i18n, &b).into_any(),
            Core::Io(io) => t!(i18n, err_io, detail = io.to_string()).into_any(),
            Core::Json(json) => t!(i18n, err_data, detail = json.to_string()).into_any(),
            // Listed above with the browser layer's own.
            Core::Store(_) | Core::StoreFull(_) => unreachable!("matched above"),
        },
    }
}

/// Why a hosted corpus's server was not read, in the interface language.
fn hosted_view(i18n: I18nContext<Locale>, why: &HostedError) -> AnyView {
    match why.clone() {
        HostedError::Unreachable(detail) => t!(i18n, hosted_unreachable, detail).into_any(),
        HostedError::Status(status) => t!(i18n, hosted_status, status).into_any(),
        HostedError::TimedOut(secs) => t!(i18n, hosted_timed_out, secs).into_any(),
        HostedError::TooSlow { received, secs } => {
            let kib = received.div_ceil(1024);
            t!(i18n, hosted_too_slow, kib, secs).into_any()
        }
        HostedError::WrongRange => t!(i18n, hosted_wrong_range).into_any(),
        HostedError::MoreThanAsked => t!(i18n, hosted_more_than_asked).into_any(),
        HostedError::Cut => t!(i18n, hosted_cut).into_any(),
        HostedError::TooLarge(bytes) => {
            let mib = bytes >> 20;
            t!(i18n, hosted_too_large, mib).into_any()
        }
    }
}

/// Why a bundle was refused, in the interface language.
pub fn bundle_refusal(i18n: I18nContext<Locale>, b: &BundleError) -> String {
    match b.clone() {
        BundleError::NotABundle => t_string!(i18n, bundle_not_a_bundle).to_string(),
        BundleError::Version { major, minor } => {
            format!("{} ({major}.{minor})", t_string!(i18n, bundle_version))
        }
        BundleError::OtherModel { bundle, library } => {
            format!(
                "{} ({bundle} ≠ {library})",
                t_string!(i18n, bundle_other_model)
            )
        }
        BundleError::Truncated { .. } => t_string!(i18n, bundle_truncated).to_string(),
        BundleError::TooLarge { what, limit } => {
            format!("{} ({what}; {limit})", t_string!(i18n, bundle_too_large))
        }
        BundleError::Checksum { section } | BundleError::Inflate { section, .. } => {
            format!("{} ({section})", t_string!(i18n, bundle_damaged))
        }
        other => format!("{} ({other})", t_string!(i18n, bundle_inconsistent)),
    }
}

/// Why the reader worker stopped on a file, in the interface language.
pub fn stopped_view(i18n: I18nContext<Locale>, why: &Stopped) -> AnyView {
    match why.clone() {
        Stopped::Panicked { message } => t!(i18n, why_stopped_panic, detail = message).into_any(),
        Stopped::TimedOut { secs } => t!(i18n, why_stopped_timeout, secs).into_any(),
        Stopped::OutOfMemory { mib } => t!(i18n, why_stopped_memory, mib).into_any(),
        Stopped::Crashed { message } => t!(i18n, why_stopped_crash, detail = message).into_any(),
    }
}

/// A notice for a person, in the interface language.
pub fn notice_view(i18n: I18nContext<Locale>, n: &Notice) -> AnyView {
    match n.clone() {
        Notice::Error(e) => error_view(i18n, &e),
        Notice::ReindexFirst => t!(i18n, reindex_first).into_any(),
        Notice::SwitchWhileBusy => t!(i18n, switch_while_busy).into_any(),
        Notice::StorageFull => t!(i18n, storage_full).into_any(),
        Notice::DbBlocked => t!(i18n, db_blocked).into_any(),
        Notice::DbClosedForUpgrade => t!(i18n, db_closed_for_upgrade).into_any(),
        Notice::CorpusUpdated { added, removed } => t_string!(i18n, corpus_updated)
            .to_string()
            .replace("{added}", &added.to_string())
            .replace("{removed}", &removed.to_string())
            .into_any(),
        Notice::FilesNotAdded(e) => {
            view! { {t!(i18n, files_not_added)} " " {error_view(i18n, &e)} }.into_any()
        }
        Notice::TranslationUnavailable(e) => {
            view! { {t!(i18n, translation_unavailable)} " " {error_view(i18n, &e)} }.into_any()
        }
    }
}
