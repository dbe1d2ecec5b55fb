//! Imports: rows added only for documents not listed, and a bundle's document marked as its
//! own until the real PDF is dropped.

use super::*;

fn meta() -> Meta {
    Meta {
        title: "shared".into(),
        description: String::new(),
        created: "2026-12-07T00:00:00Z".into(),
        pdfs: true,
    }
}

#[test]
fn an_import_adds_rows_only_for_documents_not_listed() {
    let (from, from_rows, from_ui, opening) = open(MemStore::default(), "m1");
    show_opened(&from, &from_rows, opening);
    add(
        &from,
        &from_rows,
        vec![
            ("crazyones.pdf", pdf("encrypted/crazyones.pdf")),
            ("tutorialbeamer.pdf", pdf("pt/tutorialbeamer.pdf")),
        ],
    );
    ingest(&from, &from_rows, from_ui, 1);
    let bundle = run(from.export(None, &meta())).unwrap();

    let (to, rows, ui, opening) = open(MemStore::default(), "m1");
    show_opened(&to, &rows, opening);
    add(
        &to,
        &rows,
        vec![("crazyones.pdf", pdf("encrypted/crazyones.pdf"))],
    );
    ingest(&to, &rows, ui, 1);
    run(to.import(&bundle, &mut |_, _| {})).unwrap();
    let library = to.library();
    rows.imported(&library.corpus(), &library.from_bundles());
    rows.imported(&library.corpus(), &library.from_bundles());
    ui.rows.with_untracked(|r| {
        let mut names: Vec<&str> = r.iter().map(|r| r.name.as_str()).collect();
        names.sort();
        assert_eq!(names, ["crazyones.pdf", "tutorialbeamer.pdf"], "once each");
    });
}

#[test]
fn a_document_from_a_bundle_says_so_until_its_pdf_is_dropped_and_then_has_one_row() {
    let (from, from_rows, from_ui, opening) = open(MemStore::default(), "m1");
    show_opened(&from, &from_rows, opening);
    add(
        &from,
        &from_rows,
        vec![("crazyones.pdf", pdf("encrypted/crazyones.pdf"))],
    );
    ingest(&from, &from_rows, from_ui, 1);
    let bundle = run(from.export(
        None,
        &Meta {
            pdfs: false,
            ..meta()
        },
    ))
    .unwrap();

    let (to, rows, ui, opening) = open(MemStore::default(), "m1");
    show_opened(&to, &rows, opening);
    run(to.import(&bundle, &mut |_, _| {})).unwrap();
    let library = to.library();
    rows.imported(&library.corpus(), &library.from_bundles());
    ui.rows.with_untracked(|r| {
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].from_bundle.as_deref(), Some("shared"));
    });
    add(
        &to,
        &rows,
        vec![("crazyones.pdf", pdf("encrypted/crazyones.pdf"))],
    );
    let key = ui.rows.with_untracked(|r| r[1].key);
    assert_eq!(status_of_key(ui, key), Status::Queued, "not a duplicate");
    ingest(&to, &rows, ui, key);
    ui.rows.with_untracked(|r| {
        assert_eq!(r.len(), 1, "the bundle's row went with its copy: {r:?}");
        assert_eq!(r[0].key, key);
        assert!(r[0].status.is_stored() && r[0].from_bundle.is_none());
    });
}
