//! Filled form fields whose appearance streams are empty, as LibreOffice writes them
//! (pypdf's libreoffice-form.pdf and FormTestFromOo.pdf in the wide corpus, issue 16): the
//! values the user typed are read from the fields, as viewers draw them; a password is not.

mod common;

use common::hostile::Builder;
use fonte_pdf::{extract, Limits, PartialReason, Report};

/// A page that says "Example for a Form", with widgets made of `fields` (each a dictionary's
/// entries: /FT, /V, /Ff, /Opt…), every one with `appearance` as its normal appearance.
fn form(fields: &[(&str, [f32; 4])], appearance: &[u8]) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.obj("<< /Type /Catalog /Pages 2 0 R /AcroForm 5 0 R >>");
    b.obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    b.obj(Vec::new()); // the page, filled in below
    let helvetica = b.obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    b.obj(Vec::new()); // the AcroForm, filled in below
    let content = b.stream("", b"BT /F1 14 Tf 72 740 Td (Example for a Form) Tj ET\n");
    let empty = b.stream(
        "/Type /XObject /Subtype /Form /BBox [0 0 100 12]",
        appearance,
    );
    let mut widgets = Vec::new();
    for (entries, [x0, y0, x1, y1]) in fields {
        widgets.push(b.obj(format!(
            "<< /Type /Annot /Subtype /Widget /F 4 /P 3 0 R /Rect [{x0} {y0} {x1} {y1}] \
             /DA (0 0 0 rg /F1 11 Tf) /AP << /N {empty} 0 R >> {entries} >>"
        )));
    }
    let refs: Vec<String> = widgets.iter().map(|w| format!("{w} 0 R")).collect();
    let refs = refs.join(" ");
    b.objects[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 \
         {helvetica} 0 R >> >> /Contents {content} 0 R /Annots [{refs}] >>"
    )
    .into_bytes();
    b.objects[4] = format!(
        "<< /Fields [{refs}] /NeedAppearances true /DR << /Font << /F1 {helvetica} 0 R >> >> >>"
    )
    .into_bytes();
    b.finish(catalog)
}

#[test]
fn the_values_of_filled_fields_are_read_where_the_appearance_is_empty() {
    // LibreOffice's empty appearance.
    let pdf = form(
        &[
            (
                "/FT /Tx /T (First Name) /V (Alice)",
                [120.0, 700.0, 220.0, 716.0],
            ),
            (
                "/FT /Tx /T (Notes) /Ff 4096 /V (Rent paid\\rby transfer)",
                [120.0, 600.0, 320.0, 680.0],
            ),
            (
                "/FT /Ch /T (Nationality) /Opt [(German) [(fr) (French)]]",
                [120.0, 500.0, 320.0, 560.0],
            ),
            (
                "/FT /Tx /T (PIN) /Ff 8192 /V (hunter2)",
                [120.0, 450.0, 220.0, 466.0],
            ),
            ("/FT /Btn /T (gdpr) /V /Yes", [120.0, 400.0, 132.0, 412.0]),
        ],
        b"/Tx BMC\nEMC\n",
    );
    let doc = extract(&pdf, None, Limits::default());
    assert_eq!(doc.report, Report::Complete);
    let text = &doc.pages[0].text;
    for shown in [
        "Example for a Form",
        "Alice",
        "Rent paid",
        "by transfer",
        "German",
        "French",
    ] {
        assert!(text.contains(shown), "{shown:?} not in {text:?}");
    }
    // Read top to bottom with the page: the name, then the notes, then the list.
    let at = |s| text.find(s).unwrap();
    assert!(at("Example") < at("Alice") && at("Alice") < at("Rent") && at("by") < at("German"));
    assert!(
        !text.contains("hunter2"),
        "a password is not shown: {text:?}"
    );
    // Each value is highlightable: it has its line, inside its widget.
    let start = text[..at("Alice")].chars().count();
    let marks = doc.pages[0].marks(start, start + 5);
    let [m] = marks[..] else {
        panic!("one line: {marks:?}")
    };
    assert!(m[0] >= 120.0 && m[1] >= 700.0 && m[3] <= 716.5, "{m:?}");
}

#[test]
fn an_appearance_that_draws_the_value_is_read_once() {
    // An appearance that draws the value itself, as Acrobat writes it.
    let pdf = form(
        &[("/FT /Tx /T (Name) /V (Alice)", [120.0, 700.0, 220.0, 716.0])],
        b"/Tx BMC BT /F1 11 Tf 2 3 Td (Alice) Tj ET EMC",
    );
    let doc = extract(&pdf, None, Limits::default());
    let text = &doc.pages[0].text;
    assert_eq!(text.matches("Alice").count(), 1, "{text:?}");
}

#[test]
fn a_field_value_counts_against_the_page_glyph_budget() {
    // A value far longer than a page may place: cut at the budget, and the page says so.
    let long = "word ".repeat(2_000);
    let pdf = form(
        &[(
            &format!("/FT /Tx /T (Notes) /Ff 4096 /V ({long})"),
            [72.0, 100.0, 540.0, 680.0],
        )],
        b"/Tx BMC\nEMC\n",
    );
    let limits = Limits {
        max_glyphs_per_page: 1_000,
        ..Limits::default()
    };
    let doc = extract(&pdf, None, limits);
    assert_eq!(
        doc.report,
        Report::Partial {
            pages: vec![1],
            reason: PartialReason::TooComplex
        }
    );
    let text = &doc.pages[0].text;
    assert!(text.starts_with("Example for a Form"), "{text:?}");
    assert!(text.chars().filter(|c| !c.is_whitespace()).count() <= 1_000);
}

#[test]
fn list_boxes_that_overflow_over_each_other_keep_every_letter() {
    // pypdfium2's forms.pdf: list boxes 30 pt high and 50 pt apart list more items than fit, so
    // one list's items run over another's; where both draw the same letter at the same place
    // ("n" of "Lemon" 1.8 pt under the "n" of "Albania") the overdraw check took it for fake
    // bold and dropped one: "Alba ia".
    let pdf = form(
        &[
            // At 11 pt, items 12.65 pt apart from 10.8 pt under the box's top: "Lemon" at
            // 273.9 pt, "Albania" at 272.1 pt, both from x = 102, 5.5 pt a letter.
            (
                "/FT /Ch /T (Fruit) /Opt [(Kiwi) (Mango) (Lemon)]",
                [100.0, 280.0, 200.0, 310.0],
            ),
            (
                "/FT /Ch /T (Country) /Opt [(Albania) (Belgium)]",
                [100.0, 252.9, 200.0, 282.9],
            ),
        ],
        b"/Tx BMC EMC",
    );
    let out = extract(&pdf, None, Limits::default());
    let text = &out.pages[0].text;
    for item in ["Kiwi", "Lemon", "Mango", "Albania", "Belgium"] {
        assert!(text.contains(item), "{item}: {text:?}");
    }
}

#[test]
fn a_list_box_scrolled_down_shows_its_items_from_its_top_index() {
    // pypdfium2's forms.pdf: a list box of the ten Canadian provinces scrolled to the last
    // (/TI 9), which is all it shows; every province was listed.
    let pdf = form(
        &[(
            "/FT /Ch /T (Province) /Opt [(Alberta) (Manitoba) (Ontario) (Quebec)] \
             /V (Quebec) /TI 3",
            [100.0, 100.0, 200.0, 130.0],
        )],
        b"/Tx BMC EMC",
    );
    let out = extract(&pdf, None, Limits::default());
    assert_eq!(out.pages[0].text, "Example for a Form\n\nQuebec");
}
