//! Shared by the integration tests.
#![allow(dead_code)]

pub mod hostile;

use fonte_pdf::{extract, Limits, Report};

/// The text of a one-page PDF whose content stream is `content` (Helvetica as /F1), which
/// must read complete.
pub fn text_of_page(content: &[u8]) -> String {
    let out = extract(&hostile::page_with(content), None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    out.pages[0].text.clone()
}
