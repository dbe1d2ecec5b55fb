//! Numbers written with a plus sign ("+17", "+.123": PDF 32000-1, 7.3.3), as the PDF
//! Association's compacted syntax test writes them: the `pdf` crate took only a minus sign,
//! so the file was rejected as malformed ("Expecting an object, encountered +.123").

mod common;

use common::hostile::page_with;
use fonte_pdf::{extract, Limits, Report};

#[test]
fn numbers_with_a_plus_sign_are_numbers() {
    let out = extract(
        &page_with(b"BT /F1 +12 Tf +72 +700.5 Td (signed) Tj +.0 -14 Td (numbers) Tj ET"),
        None,
        Limits::default(),
    );
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "signed\nnumbers");
}
