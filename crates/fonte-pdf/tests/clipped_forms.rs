//! A form XObject's /BBox clips what it draws: a figure included from a page of another PDF
//! (pdfTeX's \includegraphics of a page with a viewport) carries that page's whole text, and
//! only what falls inside the figure shows (PyMuPDF's test_4026.pdf: its hidden copy of the
//! body text repeated it and, taken for an overdraw of the body's letters, cost the body
//! letters: "h s been d monstrated").

mod common;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits, Report};

/// A one-page PDF whose page draws `contents` and names a form /X1 in Helvetica (/F1) with
/// the dictionary keys `form_keys` (its /BBox, any /Matrix) and the content `form`.
fn page_with_form(form_keys: &str, form: &[u8], contents: &[u8]) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new());
    let font = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let form = b.stream(
        &format!(
            "/Type /XObject /Subtype /Form {form_keys} /Resources << /Font << /F1 {font} 0 R >> \
             >>"
        ),
        form,
    );
    let contents = b.stream("", contents);
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 \
         {font} 0 R >> /XObject << /X1 {form} 0 R >> >> /Contents {contents} 0 R >>"
    )
    .into_bytes();
    b.finish(catalog)
}

#[test]
fn text_a_form_draws_outside_its_box_is_not_read() {
    // The figure: its label inside the box, a line of the page it came from outside, drawn
    // where the body's own line is, in a slightly different spacing.
    let pdf = page_with_form(
        "/BBox [100 100 300 300]",
        b"BT /F1 12 Tf 120 200 Td (Figure label) Tj ET
BT /F1 12 Tf 72 700 Td 0.4 Tc (has been demonstrated) Tj ET",
        b"q 1 0 0 1 0 0 cm /X1 Do Q BT /F1 12 Tf 72 700 Td (has been demonstrated) Tj ET",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "Figure label\n\nhas been demonstrated");
}

/// The box turns with the form: a flyer set at 30° (PyMuPDF's test_2645_2.pdf) lost the first
/// letters of its lines ("r Teams") when the box was taken as the upright rectangle between
/// two of its corners on the page, and what lies outside the turned box still goes.
#[test]
fn a_turned_form_clips_to_its_own_box() {
    let pdf = page_with_form(
        "/BBox [0 0 200 100] /Matrix [0.866 0.5 -0.5 0.866 0 0]",
        b"BT /F1 10 Tf 5 70 Td (Our Teams) Tj ET
BT /F1 10 Tf 5 40 Td (Our support) Tj ET
BT /F1 10 Tf 5 150 Td (Cut away) Tj ET",
        b"q 1 0 0 1 200 300 cm /X1 Do Q",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    let text = &out.pages[0].text;
    assert!(
        text.contains("Our Teams") && text.contains("Our support"),
        "{text:?}"
    );
    assert!(!text.contains("Cut"), "{text:?}");
}
