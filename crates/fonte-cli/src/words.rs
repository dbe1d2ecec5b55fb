//! How the command line words the core's typed reports (the core composes no text for users;
//! the browser app has its own, translated, wording in `locales/`).

use fonte_core::pdf::{Loss, PartialReason, RejectReason, Report, Stopped, Unreadable};

/// "complete", "partial: why (pages …)" or "rejected: why".
pub fn report(report: &Report) -> String {
    match report {
        Report::Complete => "complete".to_string(),
        Report::Partial { pages, reason } => {
            format!(
                "partial: {} (pages {})",
                partial(*reason),
                short_list(pages)
            )
        }
        Report::Rejected { reason } => format!("rejected: {}", rejected(reason)),
    }
}

fn partial(reason: PartialReason) -> String {
    let fixed = match reason {
        PartialReason::Damaged => "these pages could not be read (damaged content)",
        PartialReason::PartlyDamaged => "these pages could not be read in full (damaged content)",
        PartialReason::PageLimit => "only the first pages are read",
        PartialReason::TooComplex => "these pages are too complex; their text was cut short",
        PartialReason::TextLimit => {
            "the document's text is over the limit; these pages are not indexed"
        }
        PartialReason::NoTextLayer => "these pages have no text layer (scanned?)",
        PartialReason::Other => "these pages are incomplete",
        PartialReason::Undecodable { why, shown, lost } => {
            let share = 100.0 * lost as f64 / shown.max(1) as f64;
            return format!(
                "text on these pages could not be decoded: {share:.1}% of their glyphs \
                 ({lost} of {shown}) gave no text, {}",
                loss(why)
            );
        }
    };
    fixed.to_string()
}

/// Why glyphs gave no text.
fn loss(why: Loss) -> &'static str {
    match why {
        Loss::NoUnicode => "their fonts have no Unicode map and an unknown encoding",
        Loss::FontNotLoaded => "their fonts could not be loaded",
        Loss::UnmappedGlyphNames => "their fonts name glyphs in a way Fonte cannot map to text",
    }
}

/// Why a file gave no text, and what to do.
pub fn rejected(reason: &RejectReason) -> String {
    match reason {
        RejectReason::NeedsPassword => {
            "needs a password: it is encrypted; give its password to open it".into()
        }
        RejectReason::OtherSecurityHandler { handler } => format!(
            "encrypted for its recipients ({handler} security handler, e.g. their certificates): \
             no password opens it; ask its sender for an unencrypted copy"
        ),
        RejectReason::NoTextLayer => {
            "no text layer (scanned?): run OCR on it first, e.g. with ocrmypdf".into()
        }
        RejectReason::Undecodable { why, shown } => format!(
            "its text cannot be decoded ({shown} glyphs shown, none readable: {}); \
             run OCR on it (ocrmypdf --force-ocr) to get a text layer",
            loss(*why)
        ),
        RejectReason::Malformed { cause, detail } => match cause {
            Unreadable::NotPdf => "not a PDF file".into(),
            Unreadable::NoPages => "a PDF with no pages".into(),
            Unreadable::NoPageReadable => format!("no page of it could be read ({detail})"),
            Unreadable::Damaged => {
                format!("not a readable PDF: its structure is damaged ({detail})")
            }
        },
        RejectReason::TooLarge { bytes, max } => format!(
            "too large ({} MB; the limit is {} MB): split it into smaller files",
            bytes / 1_000_000,
            max / 1_000_000
        ),
        RejectReason::ReaderStopped { why } => match why {
            Stopped::Panicked { message } => format!("the reader stopped on this file ({message})"),
            Stopped::TimedOut { secs } => {
                format!("the reader stopped on this file: it took longer than {secs} s")
            }
            Stopped::OutOfMemory { mib } => {
                format!("the reader stopped on this file: it needed more than {mib} MiB")
            }
            Stopped::Crashed { message } => format!("the reader stopped on this file ({message})"),
        },
    }
}

/// "1-3, 7, 9-12": consecutive pages joined, at most eight runs shown.
pub fn short_list(pages: &[u32]) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &p in pages {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == p => *end = p,
            _ => runs.push((p, p)),
        }
    }
    let shown: Vec<String> = runs
        .iter()
        .take(8)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    let more = if runs.len() > 8 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// A language's name, as printed.
pub fn language(lang: fonte_core::search::lang::Lang) -> &'static str {
    match lang {
        fonte_core::search::lang::Lang::En => "English",
        fonte_core::search::lang::Lang::Pt => "Portuguese",
    }
}
