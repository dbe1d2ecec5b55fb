//! Files whose structure is damaged but whose text is all there: no cross-reference table (a
//! hand-written file: pdfminer's samples/simple1.pdf), `startxref 0` (pypdfium2's
//! toc_viewmodes.pdf), a table whose offsets point beside the objects, and streams whose
//! /Length is wrong or missing. poppler, MuPDF and pdf.js read them all; Fonte refused the
//! first three ("'startxref' not found") and lost the pages of the last. The table is now
//! rebuilt by scanning the objects (third_party/pdf-0.10.0/src/repair.rs) and a stream is read
//! up to "endstream" when its length does not end there.

mod common;

use common::hostile::{flate, page_of_parts, page_with, Builder};
use fonte_pdf::{extract, Limits, PartialReason, Report};

const CONTENT: &[u8] = b"BT /F1 12 Tf 72 700 Td (Damaged but readable) Tj ET";

fn text_of(pdf: &[u8]) -> String {
    let out = extract(pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete, "{:?}", out.pages);
    out.pages.iter().map(|p| p.text.as_str()).collect()
}

fn find(data: &[u8], needle: &[u8]) -> usize {
    data.windows(needle.len())
        .position(|w| w == needle)
        .unwrap()
}

#[test]
fn a_file_without_a_cross_reference_table_is_read_from_its_objects() {
    let mut pdf = page_with(CONTENT);
    pdf.truncate(find(&pdf, b"xref"));
    assert!(text_of(&pdf).contains("Damaged but readable"));
    // With a trailer but no table and no startxref, as hand-written files have.
    let mut with_trailer = pdf.clone();
    with_trailer.extend_from_slice(b"trailer\n<< /Size 3 /Root 1 0 R >>\n%%EOF\n");
    assert!(text_of(&with_trailer).contains("Damaged but readable"));
}

#[test]
fn a_startxref_of_zero_is_read_from_the_objects() {
    let mut pdf = page_with(CONTENT);
    let at = find(&pdf, b"startxref\n") + b"startxref\n".len();
    let end = at + pdf[at..].iter().position(|b| *b == b'\n').unwrap();
    pdf.splice(at..end, *b"0");
    assert!(text_of(&pdf).contains("Damaged but readable"));
}

#[test]
fn a_table_whose_offsets_point_beside_the_objects_is_rebuilt() {
    // Eight bytes before the first object that the table does not count: every offset now
    // points eight bytes early, into "1234567" then the object before. The table itself
    // still reads (startxref moved with it).
    let pdf = page_with(CONTENT);
    let first = find(&pdf, b"1 0 obj");
    let mut shifted = pdf[..first].to_vec();
    shifted.extend_from_slice(b"1234567\n");
    shifted.extend_from_slice(&pdf[first..]);
    let at = find(&shifted, b"startxref\n") + b"startxref\n".len();
    let end = at + shifted[at..].iter().position(|b| *b == b'\n').unwrap();
    let xref: usize = std::str::from_utf8(&shifted[at..end])
        .unwrap()
        .parse()
        .unwrap();
    shifted.splice(at..end, (xref + 8).to_string().into_bytes());
    assert!(text_of(&shifted).contains("Damaged but readable"));
}

#[test]
fn an_object_whose_offset_is_wrong_is_read_where_its_header_is() {
    // The table is right but for the content stream's entry (the last object): pointed at the
    // catalog's header (another object: before, the catalog was read as the page's content)
    // or into the middle of an object (a parse error).
    let pdf = page_with(CONTENT);
    let table = find(&pdf, b"xref\n");
    let last = pdf[..table]
        .windows(7)
        .rposition(|w| w.ends_with(b" 0 obj"))
        .unwrap();
    let entry = table
        + pdf[table..]
            .windows(10)
            .position(|w| w == format!("{last:010}").as_bytes())
            .unwrap();
    for wrong in [find(&pdf, b"1 0 obj"), find(&pdf, b"/MediaBox")] {
        let mut damaged = pdf.clone();
        damaged.splice(entry..entry + 10, format!("{wrong:010}").into_bytes());
        assert!(
            text_of(&damaged).contains("Damaged but readable"),
            "offset {wrong}"
        );
    }
}

#[test]
fn a_stream_whose_length_is_wrong_or_missing_is_read_up_to_endstream() {
    let pdf = page_with(CONTENT);
    let length = format!("/Length {}", CONTENT.len());
    for wrong in ["/Length 20", "/Length 4000", "/Length 99 0 R", ""] {
        let at = find(&pdf, length.as_bytes());
        let mut damaged = pdf[..at].to_vec();
        // The same number of bytes, so the table's offsets stay right.
        damaged.extend_from_slice(format!("{wrong:<width$}", width = length.len()).as_bytes());
        damaged.extend_from_slice(&pdf[at + length.len()..]);
        assert!(
            text_of(&damaged).contains("Damaged but readable"),
            "{wrong}"
        );
    }
}

#[test]
fn objects_inside_an_object_stream_are_found_without_the_table() {
    // The catalog, pages, page and font compressed in object stream 6, as PDF 1.5 writers
    // store them; the cross-reference stream that listed them is gone (a truncated download:
    // the table is at the end of the file).
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ];
    let (mut head, mut body) = (String::new(), String::new());
    for (i, o) in objects.iter().enumerate() {
        head.push_str(&format!("{} {} ", i + 1, body.len()));
        body.push_str(o);
        body.push('\n');
    }
    let stream = format!("{head}{body}");
    let mut pdf = b"%PDF-1.5\n".to_vec();
    pdf.extend_from_slice(format!("5 0 obj\n<< /Length {} >>\nstream\n", CONTENT.len()).as_bytes());
    pdf.extend_from_slice(CONTENT);
    pdf.extend_from_slice(b"\nendstream\nendobj\n");
    pdf.extend_from_slice(
        format!(
            "6 0 obj\n<< /Type /ObjStm /N 4 /First {} /Length {} >>\nstream\n{stream}\nendstream\nendobj\n",
            head.len(),
            stream.len()
        )
        .as_bytes(),
    );
    assert!(text_of(&pdf).contains("Damaged but readable"));
}

/// RC4, for [`encrypted_without_id`].
fn rc4(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut s: Vec<u8> = (0..=255).collect();
    let mut j = 0u8;
    for i in 0..256 {
        j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
        s.swap(i, j as usize);
    }
    let (mut i, mut j) = (0u8, 0u8);
    data.iter()
        .map(|b| {
            i = i.wrapping_add(1);
            j = j.wrapping_add(s[i as usize]);
            s.swap(i as usize, j as usize);
            b ^ s[s[i as usize].wrapping_add(s[j as usize]) as usize]
        })
        .collect()
}

/// A one-page file encrypted with the standard security handler (RC4, 40 bits, revision 2:
/// PDF 32000-1, algorithms 1 to 4), empty user password, and no /ID in its trailer: the key
/// derived with an empty identifier, as the writer of such a file did.
fn encrypted_without_id(content: &[u8]) -> Vec<u8> {
    const PAD: [u8; 32] = [
        0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01,
        0x08, 0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53,
        0x69, 0x7A,
    ];
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02X}")).collect::<String>();
    let owner = &md5::compute(PAD).0[..5];
    let o = rc4(owner, &PAD);
    let p: i32 = -4;
    let key = &md5::compute([&PAD[..], &o, &p.to_le_bytes()].concat()).0[..5];
    let u = rc4(key, &PAD);
    let object_key =
        |n: u32| md5::compute([key, &n.to_le_bytes()[..3], &[0, 0]].concat()).0[..10].to_vec();
    let stream = rc4(&object_key(4), content);
    let mut b = Builder::new();
    b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R \
         >> >> /Contents 4 0 R >>",
    );
    b.stream("", &stream);
    b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    b.obj(format!(
        "<< /Filter /Standard /V 1 /R 2 /O <{}> /U <{}> /P {p} >>",
        hex(&o),
        hex(&u)
    ));
    b.finish_with(1, " /Encrypt 6 0 R")
}

#[test]
fn an_encrypted_file_without_an_id_is_decrypted_with_an_empty_one() {
    // pypdf's encrypted_doc_no_id.pdf (a patent office's file) was refused: "Field /ID is
    // missing in dictionary for type Trailer". poppler, MuPDF and pdf.js read it.
    assert!(text_of(&encrypted_without_id(CONTENT)).contains("Damaged but readable"));
}

#[test]
fn an_empty_flate_stream_is_empty_not_damage() {
    // pikepdf writes a blank page's contents as `<< /Length 0 /Filter /FlateDecode >>` with no
    // data (ocrmypdf's docinfo_latin1_key.pdf): "can't inflate" made the page unreadable and
    // the file "malformed: no page could be read".
    let empty: (&[u8], Option<&str>) = (b"", Some("FlateDecode"));
    let compressed = flate(CONTENT);
    let text: (&[u8], Option<&str>) = (&compressed, Some("FlateDecode"));
    let file = |parts: &[(&[u8], Option<&str>)]| page_of_parts(parts, None);
    let blank = extract(&file(&[empty]), None, Limits::default());
    assert!(
        matches!(&blank.report, Report::Rejected { reason } if format!("{reason:?}") == "NoTextLayer"),
        "{:?}",
        blank.report
    );
    assert!(text_of(&file(&[empty, text])).contains("Damaged but readable"));
}

#[test]
fn a_content_stream_whose_flate_data_breaks_off_keeps_what_came_before() {
    // A truncated download cuts the last page's compressed content: what decodes before the
    // break is read (as poppler and MuPDF do) and the page is reported as not read in full.
    let mut content = CONTENT.to_vec();
    for i in 0..400 {
        content.extend_from_slice(
            format!("\nBT /F1 9 Tf 72 {} Td (line {i} of many) Tj ET", 690 - i).as_bytes(),
        );
    }
    let compressed = flate(&content);
    let cut = &compressed[..compressed.len() * 6 / 10];
    // The cut stream as the page's content, and as a form the page draws.
    for in_form in [false, true] {
        let cut: (&[u8], Option<&str>) = (cut, Some("FlateDecode"));
        let pdf = if in_form {
            page_of_parts(&[(b"/X1 Do", None)], Some(cut))
        } else {
            page_of_parts(&[cut], None)
        };
        let out = extract(&pdf, None, Limits::default());
        let text = &out.pages[0].text;
        assert!(
            text.contains("Damaged but readable"),
            "form {in_form}: {text:?}"
        );
        assert!(text.contains("line 100 of many"), "form {in_form}");
        assert!(!text.contains("line 399 of many"), "form {in_form}");
        assert_eq!(
            out.report,
            Report::Partial {
                pages: vec![1],
                reason: PartialReason::PartlyDamaged
            },
            "form {in_form}"
        );
    }
}

#[test]
fn a_file_with_no_objects_is_still_refused_as_malformed() {
    let out = extract(
        b"%PDF-1.3\nThis is not a valid PDF file\n%%EOF\n",
        None,
        Limits::default(),
    );
    assert!(
        matches!(&out.report, Report::Rejected { reason } if format!("{reason:?}").contains("startxref")),
        "{:?}",
        out.report
    );
}
