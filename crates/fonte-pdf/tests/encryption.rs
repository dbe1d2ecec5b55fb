//! Encryption dictionaries that encrypt nothing a reader needs: streams and strings under the
//! Identity crypt filter, only embedded files encrypted (/EFF), as pyHanko's
//! embedded-encrypted-nocf.pdf is written. The `pdf` crate refused such a file ("missing crypt
//! filter entry Identity"); pdftotext and MuPDF read it without a password.

mod common;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits, RejectReason, Report};

#[test]
fn a_file_whose_streams_and_strings_use_the_identity_filter_reads_without_a_password() {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
         /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    );
    b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    b.stream("", b"BT /F1 12 Tf 72 700 Td (Hello World) Tj ET");
    let pad = "00".repeat(48);
    let encrypt = b.obj(format!(
        "<< /Filter /Standard /V 5 /R 6 /Length 256 /P -4 /O <{pad}> /U <{pad}> \
         /OE <{}> /UE <{}> /Perms <{}> /StmF /Identity /StrF /Identity /EFF /StdCF \
         /CF << /StdCF << /CFM /AESV3 /AuthEvent /EFOpen /Length 32 >> >> >>",
        "00".repeat(32),
        "00".repeat(32),
        "00".repeat(16)
    ));
    let pdf = b.finish_with(
        catalog,
        &format!(" /Encrypt {encrypt} 0 R /ID [<0123456789abcdef> <0123456789abcdef>]"),
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.report, Report::Complete);
    assert_eq!(out.pages[0].text, "Hello World");
}

#[test]
fn a_file_encrypted_for_certificate_holders_says_so_and_asks_no_password() {
    // The public-key handler (Adobe.PubSec) encrypts for the holders of certificates: no
    // password opens it. It was reported malformed ("Field /o is missing in dictionary for
    // type CryptDict"; pyHanko's pubkey-*.pdf).
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R >>");
    b.obj("<< /Type /Pages /Kids [] /Count 0 >>");
    let encrypt = b.obj(
        "<< /Filter /Adobe.PubSec /SubFilter /adbe.pkcs7.s5 /V 4 /Length 128 \
         /CF << /DefaultCryptFilter << /CFM /AESV2 /Recipients [<3082>] >> >> \
         /StmF /DefaultCryptFilter /StrF /DefaultCryptFilter >>",
    );
    let pdf = b.finish_with(
        catalog,
        &format!(" /Encrypt {encrypt} 0 R /ID [<0123456789abcdef> <0123456789abcdef>]"),
    );
    for password in [None, Some(&b"secret"[..])] {
        let out = extract(&pdf, password, Limits::default());
        assert_eq!(
            out.report,
            Report::Rejected {
                reason: RejectReason::OtherSecurityHandler {
                    handler: "Adobe.PubSec".into()
                }
            }
        );
    }
}
