//! The text layer on real PDFs from `../shared/fixtures/pdfs` (see its SOURCES.md).

mod common;

use std::path::PathBuf;

use common::hostile::page_of_parts;

use fonte_pdf::{extract, Limits, PartialReason, RejectReason, Report, Unreadable};

/// The shared fixtures' PDFs: `$FONTE_SHARED/fixtures/pdfs`, by default next to the checkout.
fn pdfs() -> PathBuf {
    std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("fixtures/pdfs")
}

fn fixture(rel: &str) -> Vec<u8> {
    let path = pdfs().join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text_of(rel: &str) -> String {
    let doc = extract(&fixture(rel), None, Limits::default());
    assert_eq!(doc.report, Report::Complete, "{rel}");
    doc.pages
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\u{c}")
}

#[test]
fn portuguese_latex_with_tex_accents_and_ligatures() {
    let doc = extract(&fixture("pt/tutorialbeamer.pdf"), None, Limits::default());
    assert_eq!(doc.page_count, 15);
    assert_eq!(doc.pages.len(), 15);
    assert_eq!(doc.pages[0].number, 1);
    let all: String = doc.pages.iter().map(|p| p.text.as_str()).collect();
    // "\'{\i}" and "\~a" drawn as separate glyphs by TeX, merged back.
    assert!(all.contains("disponível"), "accent over dotless i");
    assert!(all.contains("apresentações"), "tilde and cedilla");
    assert!(!all.contains('\u{FB01}'), "ligatures spelled out");
    assert_eq!(doc.id.len(), 64);
}

#[test]
fn the_debian_faq_keeps_its_structure() {
    // This file's /OpenAction is an array, which the crate's strict parser refuses.
    let text = text_of("en/debian-faq.en.pdf");
    assert!(text.contains("1.1 What is this FAQ?"));
    assert!(text.contains("The Debian GNU/Linux FAQ"));
}

#[test]
fn a_multi_part_content_stream_keeps_the_text_after_the_joint() {
    // The OCR layer follows an image in a second content stream part ("Q" + "BT" -> "QBT").
    let text = text_of("scanned/Seige_of_Vicksburg_Sample_OCR.pdf");
    assert!(
        text.to_lowercase().contains("vicksburg"),
        "{}",
        &text[..text.len().min(300)]
    );
}

#[test]
fn image_only_scans_are_reported_as_having_no_text_layer() {
    for rel in ["scanned/linn.pdf", "scanned/skew.pdf", "scanned/c03-29.pdf"] {
        let doc = extract(&fixture(rel), None, Limits::default());
        assert_eq!(
            doc.report,
            Report::Rejected {
                reason: RejectReason::NoTextLayer
            },
            "{rel}"
        );
    }
    // Page 4 of this one is a chart whose labels are real text: the others are listed.
    let doc = extract(&fixture("scanned/multipage.pdf"), None, Limits::default());
    match doc.report {
        Report::Partial { pages, reason } => {
            assert_eq!(pages, [1, 2, 3, 5, 6]);
            assert_eq!(reason, PartialReason::NoTextLayer);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn encrypted_files_open_with_the_empty_password_or_the_one_given() {
    assert!(text_of("encrypted/r2-empty-password.pdf").contains("encryption test"));
    assert!(text_of("encrypted/r4-owner-password.pdf").contains("encryption test"));
    let locked = extract(
        &fixture("encrypted/r2-user-password.pdf"),
        None,
        Limits::default(),
    );
    assert_eq!(
        locked.report,
        Report::Rejected {
            reason: RejectReason::NeedsPassword
        }
    );
    let opened = extract(
        &fixture("encrypted/r2-user-password.pdf"),
        Some(b"asdfzxcv"),
        Limits::default(),
    );
    assert_eq!(opened.report, Report::Complete);
    assert!(opened.pages[0].text.contains("encryption test"));
}

#[test]
fn aes_256_files_open_thanks_to_the_patched_crate() {
    // R5 and R6 security handlers (AES-256); third_party/pdf-0.10.0 fixes the key length.
    for rel in [
        "encrypted/r5-empty-password.pdf",
        "encrypted/r6-empty-password.pdf",
        "encrypted/r6-owner-password.pdf",
    ] {
        assert!(text_of(rel).contains("encryption test"), "{rel}");
    }
    let locked = extract(
        &fixture("encrypted/crazyones-encrypted-256.pdf"),
        None,
        Limits::default(),
    );
    assert_eq!(
        locked.report,
        Report::Rejected {
            reason: RejectReason::NeedsPassword
        }
    );
    let opened = extract(
        &fixture("encrypted/crazyones-encrypted-256.pdf"),
        Some(b"password"),
        Limits::default(),
    );
    assert_eq!(opened.report, Report::Complete);
    let reference = std::fs::read_to_string(pdfs().join("encrypted/crazyones.txt")).unwrap();
    let first_words: Vec<&str> = reference.split_whitespace().take(4).collect();
    let text: String = opened.pages.iter().map(|p| p.text.as_str()).collect();
    assert!(
        text.split_whitespace()
            .take(20)
            .collect::<Vec<_>>()
            .windows(4)
            .any(|w| w == first_words.as_slice()),
        "{}",
        &text[..text.len().min(200)]
    );
    // AES-128 with a user password.
    let aes128 = extract(
        &fixture("encrypted/r4-aes-user-password.pdf"),
        Some(b"asdfzxcv"),
        Limits::default(),
    );
    assert_eq!(aes128.report, Report::Complete);
}

#[test]
fn malformed_files_give_an_error_or_a_report_never_a_panic() {
    for rel in [
        "malformed/378014596.pdf",
        "malformed/badlin1.pdf",
        "malformed/content-stream-errors.pdf",
        "malformed/cyclic-toc.pdf",
        "malformed/invalid.pdf",
        "malformed/issue-301.pdf",
        "malformed/newline-buffer-test.pdf",
    ] {
        let doc = extract(&fixture(rel), None, Limits::default());
        if let Report::Rejected {
            reason: RejectReason::Malformed { detail: msg, .. },
        } = &doc.report
        {
            assert!(
                !msg.contains(".rs:"),
                "{rel}: no source locations in messages: {msg}"
            );
        }
    }
    let invalid = extract(&fixture("malformed/invalid.pdf"), None, Limits::default());
    assert!(matches!(
        invalid.report,
        Report::Rejected {
            reason: RejectReason::Malformed { .. }
        }
    ));
    // The cause is typed, for the app to word: a file with no PDF header is not a PDF at all.
    let text = extract(b"Just some text, not a PDF.", None, Limits::default());
    assert!(
        matches!(
            text.report,
            Report::Rejected {
                reason: RejectReason::Malformed {
                    cause: Unreadable::NotPdf,
                    ..
                }
            }
        ),
        "{:?}",
        text.report
    );
    // Pages 1 and 4 break off inside an array and a dictionary (pdftotext says so too), page 3
    // inside an inline image that never ends (MuPDF says so): their text before the damage is
    // kept, and the report says they were not read in full.
    let errors = extract(
        &fixture("malformed/content-stream-errors.pdf"),
        None,
        Limits::default(),
    );
    assert!(errors.pages.iter().all(|p| p.text == "Potato"));
    assert_eq!(
        errors.report,
        Report::Partial {
            pages: vec![1, 3, 4],
            reason: PartialReason::PartlyDamaged
        }
    );
    // Two of its four font programs have a wrong /Length (pdftotext: "Missing 'endstream' or
    // incorrect stream length"). Read up to "endstream", as poppler reads them, both fonts
    // load and the page is complete; until stop 32 they were lost (`font_not_loaded`).
    let fonts = extract(&fixture("malformed/issue-301.pdf"), None, Limits::default());
    let text = &fonts.pages[0].text;
    assert!(text.contains("dP") && text.contains('•'), "{text}");
    assert_eq!(fonts.report, Report::Complete);
    // Recoverable: a damaged xref table is rebuilt.
    assert_eq!(
        extract(&fixture("malformed/badlin1.pdf"), None, Limits::default()).page_count,
        30
    );
}

#[test]
fn limits_cap_the_work_and_say_so() {
    let limits = Limits {
        max_pages: 3,
        ..Limits::default()
    };
    let doc = extract(&fixture("en/R-FAQ.pdf"), None, limits);
    assert_eq!(doc.pages.len(), 3);
    match doc.report {
        Report::Partial { pages, reason } => {
            assert_eq!(pages.first(), Some(&4));
            assert_eq!(reason, PartialReason::PageLimit);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn running_headers_are_marked_on_the_faq() {
    let doc = extract(&fixture("en/debian-faq.en.pdf"), None, Limits::default());
    let marked = doc.pages.iter().filter(|p| !p.furniture.is_empty()).count();
    assert!(
        marked > doc.pages.len() / 2,
        "{marked} of {} pages",
        doc.pages.len()
    );
}

#[test]
fn signed_and_padded_encryption_dictionaries_open_thanks_to_the_patched_crate() {
    // R4 AES-128, empty user password, with a usage-rights signature whose /Contents is not
    // encrypted (third_party: undecryptable strings are kept as written).
    let form = extract(&fixture("forms/form_dd0293.pdf"), None, Limits::default());
    assert_eq!(form.page_count, 4, "{:?}", form.report);
    assert!(
        !matches!(form.report, Report::Rejected { .. }),
        "{:?}",
        form.report
    );
    let words: usize = form
        .pages
        .iter()
        .map(|p| p.text.split_whitespace().count())
        .sum();
    assert!(words > 100, "{words} words");
    // Its page 1's /Contents is a reference to an array of eight streams (third_party: read
    // part by part; it used to come back empty).
    assert!(
        form.pages[0]
            .text
            .contains("APPLICATION FOR THE REVIEW OF DISCHARGE"),
        "page 1: {:?}",
        &form.pages[0].text.chars().take(200).collect::<String>()
    );
    // R6 with /U and /O padded to 127 bytes (pikepdf); user password "user". Its one page is
    // an image (pdftotext finds no text either): opened, it reports the missing text layer.
    let locked = extract(
        &fixture("encrypted/graph-encrypted.pdf"),
        None,
        Limits::default(),
    );
    assert_eq!(
        locked.report,
        Report::Rejected {
            reason: RejectReason::NeedsPassword
        }
    );
    let opened = extract(
        &fixture("encrypted/graph-encrypted.pdf"),
        Some(b"user"),
        Limits::default(),
    );
    assert_eq!(opened.page_count, 1, "{:?}", opened.report);
    assert_eq!(
        opened.report,
        Report::Rejected {
            reason: RejectReason::NoTextLayer
        }
    );
}

/// A one-page PDF in Helvetica whose /Contents is an array of these streams, each given as
/// (its bytes, its /Filter if any).
fn one_page_pdf(parts: &[(&[u8], Option<&str>)]) -> Vec<u8> {
    page_of_parts(parts, None)
}

#[test]
fn a_page_with_damaged_content_keeps_what_came_before_and_says_so() {
    let before: &[u8] = b"BT /F1 12 Tf 72 700 Td (Clause one survives) Tj ET";
    let intact = extract(&one_page_pdf(&[(before, None)]), None, Limits::default());
    assert_eq!(intact.report, Report::Complete);
    assert_eq!(intact.pages[0].text, "Clause one survives");

    // A second part that does not inflate.
    let bad_flate = extract(
        &one_page_pdf(&[
            (before, None),
            (b"this is not zlib data", Some("FlateDecode")),
        ]),
        None,
        Limits::default(),
    );
    // A stream that breaks off inside an array, after the first text object.
    let broken_off = extract(
        &one_page_pdf(&[(
            b"BT /F1 12 Tf 72 700 Td (Clause one survives) Tj ET BT [(Cla",
            None,
        )]),
        None,
        Limits::default(),
    );
    // A form drawn by the page whose stream does not inflate.
    let bad_form = extract(
        &page_of_parts(
            &[(
                b"BT /F1 12 Tf 72 700 Td (Clause one survives) Tj ET /X1 Do",
                None,
            )],
            Some((b"not zlib either", Some("FlateDecode"))),
        ),
        None,
        Limits::default(),
    );
    for (name, doc) in [
        ("bad flate", bad_flate),
        ("broken off", broken_off),
        ("bad form", bad_form),
    ] {
        assert_eq!(doc.pages[0].text, "Clause one survives");
        match &doc.report {
            Report::Partial { pages, reason } => {
                assert_eq!(pages, &vec![1]);
                assert_eq!(*reason, PartialReason::PartlyDamaged);
            }
            other => panic!("{name}: a damaged page is not complete: {other:?}"),
        }
    }
}

#[test]
fn a_decompression_bomb_is_refused_not_inflated() {
    use std::io::Write;
    // 100 MiB of spaces compress to about 100 KB; the patched crate stops at 64 MiB.
    let mut encoder = libflate::zlib::Encoder::new(Vec::new()).unwrap();
    let block = vec![b' '; 1 << 20];
    for _ in 0..100 {
        encoder.write_all(&block).unwrap();
    }
    let bomb = encoder.finish().into_result().unwrap();
    assert!(bomb.len() < 1 << 20, "{} bytes", bomb.len());
    let doc = extract(
        &one_page_pdf(&[
            (b"BT /F1 12 Tf 72 700 Td (Clause one survives) Tj ET", None),
            (&bomb, Some("FlateDecode")),
        ]),
        None,
        Limits::default(),
    );
    assert_eq!(doc.pages[0].text, "Clause one survives");
    assert!(
        matches!(&doc.report, Report::Partial { pages, .. } if pages == &vec![1]),
        "{:?}",
        doc.report
    );
}
