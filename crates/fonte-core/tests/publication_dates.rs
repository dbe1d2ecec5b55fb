//! The publication date chosen for real PDFs, with where it came from: a cover's date over the
//! file's export date, a date in the text after the file was written not taken, a declared
//! XMP publication date, the creation date when nothing else is given.

use std::path::PathBuf;

use fonte_core::ingest::published::choose;
use fonte_core::pdf::dates::{DateSource, PubDate};
use fonte_core::pdf::{extract, Limits};
use fonte_core::search::corpus::DateFrom;

fn chosen(rel: &str) -> Option<(PubDate, DateFrom)> {
    let shared = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let path = shared.join("fixtures/pdfs").join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    choose(&extract(&bytes, None, Limits::default()).dates).map(|p| (p.date, p.from))
}

fn day(year: u16, month: u8, day: u8) -> PubDate {
    PubDate {
        year,
        month: Some(month),
        day: Some(day),
    }
}

#[test]
fn the_cover_gives_the_edition_rather_than_the_export() {
    // Exported 2023-01-20; its cover names the edition of 2022-09-08.
    assert_eq!(
        chosen("en/R-FAQ.pdf"),
        Some((
            day(2022, 9, 8),
            DateFrom::File(DateSource::Text { page: 1 })
        ))
    );
}

#[test]
fn a_date_in_the_text_after_the_file_was_written_is_not_its_date() {
    // The form's page 1 writes 2026-02-28, a year after the file's last change (2025-02-13):
    // a date the form speaks of, not its edition; its creation date is taken.
    assert_eq!(
        chosen("forms/form_dd0293.pdf"),
        Some((day(2021, 6, 7), DateFrom::File(DateSource::InfoCreated)))
    );
}

#[test]
fn a_declared_publication_date_then_the_creation_date() {
    assert_eq!(
        chosen("multicolumn/sample-sigconf.pdf"),
        Some((day(2022, 11, 6), DateFrom::File(DateSource::XmpPublished)))
    );
    // Created 2015-07-28, modified 2022-08-10: the creation is the closer to the edition.
    assert_eq!(
        chosen("scanned/multipage.pdf").map(|c| c.1),
        Some(DateFrom::File(DateSource::InfoCreated))
    );
    assert_eq!(chosen("forms/SF424_page2.pdf"), None);
}
