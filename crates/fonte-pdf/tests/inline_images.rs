//! Where an inline image's data ends (`BI … ID data EI`): at the first "EI" with white space on
//! both sides, as MuPDF and pdf.js read it. The `pdf` crate looked for a line that starts with
//! EI, so an image ending "~> EI Q" on one line swallowed the content after it, and the page
//! was reported complete (a utility bill's figures in tabula-py's data_dtype.pdf).

mod common;

use common::text_of_page as text_of;

use common::hostile::page_with;
use fonte_pdf::{extract, Limits, Report};

#[test]
fn text_after_an_inline_image_ended_on_its_own_line_is_read() {
    let text = text_of(
        b"BT /F1 12 Tf 72 700 Td (before) Tj ET\r\n q 20 0 0 20 72 600 cm \
          BI /W 8 /H 1 /BPC 1 /IM true /F [/A85] ID\r\n z~> EI Q BT /F1 12 Tf 72 686 Td \
          (17.233,37) Tj ET\r\n BT /F1 12 Tf 72 672 Td (after) Tj ET\r\nq BI /W 1 /H 1 /BPC 1 \
          /IM true ID\n\x80\nEI Q",
    );
    assert_eq!(text, "before\n17.233,37\nafter");
}

#[test]
fn an_ei_inside_binary_data_is_not_its_end() {
    // " EI" followed by bytes no content stream holds is the image's own data.
    let mut content = b"q BI /W 4 /H 1 /BPC 8 /CS /G ID ".to_vec();
    content.extend_from_slice(b"\x01 EI\x9f\xff\n EI Q BT /F1 12 Tf 72 700 Td (after) Tj ET");
    assert_eq!(text_of(&content), "after");
}

#[test]
fn an_inline_image_that_never_ends_leaves_the_page_partial() {
    // Nothing after BI … ID is read as operators (it is image data, or damage), and the page
    // says text may be missing (pikepdf's content-stream-errors.pdf, page 3).
    let pdf = page_with(
        b"BT /F1 12 Tf 72 700 Td (Potato) Tj ET BI /W 1 /H 1 /BPC 8 /CS /G ID \x9c\x00 (x) Tj",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text, "Potato");
    assert!(
        matches!(out.report, Report::Partial { .. }),
        "{:?}",
        out.report
    );
}
