//! An incremental update that moves an object into an object stream (a signing tool's update,
//! as pyHanko writes it: minimal-two-fields-signed-twice.pdf): the newest cross-reference
//! section says where each object now is. The `pdf` crate let an older section's entry
//! replace a newer one whenever the newer one was inside an object stream, so the file read
//! as before the update (the second signature's appearance was missing).

mod common;

use common::hostile::{flate, Builder};
use fonte_pdf::{extract, Limits, Report};

#[test]
fn an_object_moved_into_an_object_stream_by_an_update_is_read_as_updated() {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    let page = |contents: usize| {
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
             /Resources << /Font << /F1 4 0 R >> >> /Contents {contents} 0 R >>"
        )
    };
    b.obj(page(5));
    b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    b.stream("", b"BT /F1 12 Tf 72 700 Td (Original) Tj ET");
    let mut pdf = b.finish(catalog);
    let text = String::from_utf8_lossy(&pdf).into_owned();
    let prev: usize = text
        .rsplit("startxref\n")
        .next()
        .and_then(|t| t.lines().next())
        .and_then(|n| n.parse().ok())
        .unwrap();

    // The update: page 3 again, now inside object stream 6, drawing stream 7; cross-reference
    // stream 8 with a zero-width third field (each compressed object's index is then 0).
    let mut offsets = Vec::new();
    let page3 = page(7);
    let objstm = format!("3 0 {page3}");
    offsets.push((6, pdf.len()));
    pdf.extend_from_slice(
        format!(
            "6 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Length {} >>\nstream\n{objstm}\nendstream\nendobj\n",
            objstm.len()
        )
        .as_bytes(),
    );
    let content = b"BT /F1 12 Tf 72 700 Td (Updated) Tj ET";
    offsets.push((7, pdf.len()));
    pdf.extend_from_slice(format!("7 0 obj\n<< /Length {} >>\nstream\n", content.len()).as_bytes());
    pdf.extend_from_slice(content);
    pdf.extend_from_slice(b"\nendstream\nendobj\n");
    let xref_at = pdf.len();
    offsets.push((8, xref_at));
    let mut rows = vec![2u8, 0, 0, 0, 6]; // object 3: in object stream 6
    for &(_, off) in &offsets {
        rows.push(1);
        rows.extend_from_slice(&(off as u32).to_be_bytes());
    }
    let rows = flate(&rows);
    pdf.extend_from_slice(
        format!(
            "8 0 obj\n<< /Type /XRef /Size 9 /Root {catalog} 0 R /Prev {prev} /W [1 4 0] \
             /Index [3 1 6 3] /Filter /FlateDecode /Length {} >>\nstream\n",
            rows.len()
        )
        .as_bytes(),
    );
    pdf.extend_from_slice(&rows);
    pdf.extend_from_slice(format!("\nendstream\nendobj\nstartxref\n{xref_at}\n%%EOF\n").as_bytes());

    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "Updated");
}

#[test]
fn a_stream_that_ends_with_a_comment_is_whole() {
    // A signature's blank layer is the stream "% DSBlank": it was reported broken off, so every
    // signed page read partial.
    let pdf = common::hostile::page_with(b"BT /F1 12 Tf 72 700 Td (Signed) Tj ET\n% DSBlank");
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "Signed");
}
