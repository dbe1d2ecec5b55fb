//! The dates a real PDF gives for itself, each with its source: the R FAQ's cover says which
//! edition it is (2022-09-08) while its document information says when it was exported
//! (2023-01-20); an ACM sample carries XMP dates; a Portuguese title page writes its date.

use std::path::PathBuf;

use fonte_pdf::dates::{DateSource, PubDate};
use fonte_pdf::{extract, Limits};

fn dates(rel: &str) -> Vec<(PubDate, DateSource)> {
    let shared = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let path = shared.join("fixtures/pdfs").join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    extract(&bytes, None, Limits::default())
        .dates
        .into_iter()
        .map(|d| (d.date, d.source))
        .collect()
}

fn day(year: u16, month: u8, day: u8) -> PubDate {
    PubDate {
        year,
        month: Some(month),
        day: Some(day),
    }
}

#[test]
fn a_cover_gives_the_edition_and_the_information_the_export() {
    let r = dates("en/R-FAQ.pdf");
    assert!(
        r.contains(&(day(2022, 9, 8), DateSource::Text { page: 1 })),
        "{r:?}"
    );
    assert!(
        r.contains(&(day(2023, 1, 20), DateSource::InfoCreated)),
        "{r:?}"
    );
    assert!(
        r.contains(&(day(2023, 1, 20), DateSource::InfoModified)),
        "{r:?}"
    );
}

#[test]
fn xmp_dates_are_read() {
    let acm = dates("multicolumn/sample-sigconf.pdf");
    for source in [
        DateSource::XmpCreated,
        DateSource::XmpModified,
        DateSource::XmpPublished,
    ] {
        assert!(acm.contains(&(day(2022, 11, 6), source)), "{acm:?}");
    }
}

#[test]
fn a_portuguese_title_page_date_is_read() {
    let beamer = dates("pt/tutorialbeamer.pdf");
    assert!(
        beamer.contains(&(day(2006, 4, 24), DateSource::Text { page: 1 })),
        "{beamer:?}"
    );
}
