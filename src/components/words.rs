//! What a file's status, a rejection, where the model runs and the time left say, in the
//! interface language (the core gives typed reasons; every word is chosen here).

use fonte_core::pdf::{Loss, PartialReason, Unreadable};
use leptos::prelude::*;
use leptos_i18n::I18nContext;

use crate::components::errors::{error_view, stopped_view};
use crate::i18n::*;
use crate::models::{Compute, Placement};
use crate::state::{Status, Why};

/// Why a file was rejected, in the interface language.
pub fn why_view(i18n: I18nContext<Locale>, why: &Why) -> AnyView {
    match why.clone() {
        Why::Password => t!(i18n, why_password).into_any(),
        Why::Recipients(handler) => t!(i18n, why_recipients, handler = handler).into_any(),
        Why::Scanned => t!(i18n, why_scanned).into_any(),
        Why::Undecodable(Loss::NoUnicode, shown) => {
            t!(i18n, why_undecodable_no_unicode, shown).into_any()
        }
        Why::Undecodable(Loss::FontNotLoaded, shown) => {
            t!(i18n, why_undecodable_font, shown).into_any()
        }
        Why::Undecodable(Loss::UnmappedGlyphNames, shown) => {
            t!(i18n, why_undecodable_names, shown).into_any()
        }
        Why::Malformed(Unreadable::NotPdf, _) => t!(i18n, why_not_pdf).into_any(),
        Why::Malformed(Unreadable::NoPages, _) => t!(i18n, why_no_pages).into_any(),
        Why::Malformed(Unreadable::NoPageReadable, detail) => {
            t!(i18n, why_no_page_readable, detail).into_any()
        }
        Why::Malformed(Unreadable::Damaged, detail) => t!(i18n, why_malformed, detail).into_any(),
        Why::NotPdf => t!(i18n, why_not_pdf).into_any(),
        Why::TooLarge(bytes, max) => {
            let (mb, max) = (bytes / 1_000_000, max / 1_000_000);
            t!(i18n, why_too_large, mb, max).into_any()
        }
        Why::Stopped(why) => stopped_view(i18n, &why),
    }
}

fn part_view(i18n: I18nContext<Locale>, why: PartialReason) -> AnyView {
    match why {
        PartialReason::Damaged => t!(i18n, part_damaged).into_any(),
        PartialReason::PartlyDamaged => t!(i18n, part_partly_damaged).into_any(),
        PartialReason::PageLimit => t!(i18n, part_capped).into_any(),
        PartialReason::TooComplex => t!(i18n, part_complex).into_any(),
        PartialReason::TextLimit => t!(i18n, part_text_limit).into_any(),
        PartialReason::NoTextLayer => t!(i18n, part_scanned).into_any(),
        PartialReason::Undecodable { why, shown, lost } => {
            // One decimal: "0.4%" says more than "0%" on a page that lost a few glyphs.
            let share = format!("{:.1}", 100.0 * lost as f64 / shown.max(1) as f64);
            match why {
                Loss::NoUnicode => t!(i18n, part_undecodable_no_unicode, share).into_any(),
                Loss::FontNotLoaded => t!(i18n, part_undecodable_font, share).into_any(),
                Loss::UnmappedGlyphNames => t!(i18n, part_undecodable_names, share).into_any(),
            }
        }
        PartialReason::Other => t!(i18n, part_other).into_any(),
    }
}

pub fn status_view(i18n: I18nContext<Locale>, s: &Status) -> AnyView {
    match s.clone() {
        Status::Queued => t!(i18n, st_queued).into_any(),
        Status::Parsing => t!(i18n, st_parsing).into_any(),
        Status::Waiting {
            chunks,
            searchable: false,
        } => t!(i18n, st_waiting, chunks).into_any(),
        Status::Waiting {
            chunks,
            searchable: true,
        } => t!(i18n, st_waiting_searchable, chunks).into_any(),
        Status::Embedding {
            done,
            total,
            searchable: false,
        } => t!(i18n, st_embedding, done, total).into_any(),
        Status::Embedding {
            done,
            total,
            searchable: true,
        } => t!(i18n, st_embedding_searchable, done, total).into_any(),
        Status::Ready => t!(i18n, st_ready).into_any(),
        Status::Partial { why, pages } => {
            let why = move || part_view(i18n, why);
            t!(i18n, st_partial, why, pages).into_any()
        }
        Status::Rejected(why) => {
            let why = move || why_view(i18n, &why);
            t!(i18n, st_rejected, why).into_any()
        }
        Status::Duplicate(of) => t!(i18n, st_duplicate, of).into_any(),
        Status::Cancelled => t!(i18n, st_cancelled).into_any(),
        Status::StorageFull => t!(i18n, st_storage_full).into_any(),
        Status::Failed(why) => t!(i18n, st_failed, why = move || error_view(i18n, &why)).into_any(),
        Status::Damaged => t!(i18n, st_damaged).into_any(),
    }
}

pub fn placement_view(i18n: I18nContext<Locale>, p: Placement) -> AnyView {
    let (threads, workers) = (p.threads, p.workers);
    match (p.compute, p.gpu_failed) {
        (Compute::WebGpu, _) => t!(i18n, compute_webgpu).into_any(),
        (Compute::Wasm, None) => t!(i18n, compute_wasm, workers, threads).into_any(),
        (Compute::Wasm, Some(why)) => t!(i18n, compute_gpu_failed, why, threads).into_any(),
    }
}

pub fn eta_view(i18n: I18nContext<Locale>, seconds: f64) -> AnyView {
    let s = seconds.round() as u64;
    if s >= 90 {
        let n = s.div_ceil(60);
        t!(i18n, eta_min, n).into_any()
    } else {
        let n = s;
        t!(i18n, eta_s, n).into_any()
    }
}

/// Bytes as megabytes with one decimal ("2.9"), for download progress.
pub fn megabytes(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1e6)
}
