//! The page's rows driven by a real core session (`MemStore`, in-process reading, the fake
//! encoder) with real PDFs: what the user sees while files are added, read, embedded,
//! duplicated, rejected, deleted, imported, re-indexed and reopened.

use std::cell::RefCell;
use std::path::PathBuf;

use fonte_core::ingest::queue::File;
use fonte_core::library::Opening;
use fonte_core::session::fake::{info, Local};
use fonte_core::session::Session;
use fonte_core::share::bundle::Meta;
use fonte_core::store::{MemStore, Store};
use leptos::prelude::*;

use super::Rows;
use crate::state::{Loaded, Progress, Status, Ui};

type Page = Session<MemStore, Local>;

fn pdf(rel: &str) -> Vec<u8> {
    let path = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"))
        .join("fixtures/pdfs")
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run<T>(f: impl std::future::Future<Output = T>) -> T {
    pollster::block_on(f)
}

/// A session of the fake model `model` over `store`, its rows shown through fresh signals.
fn open(store: MemStore, model: &str) -> (Page, Rows, Ui, Opening) {
    let ui = Ui::new();
    let (session, opening) = run(Session::open(store, &info(model), Local::new(model))).unwrap();
    (session, Rows::new(ui), ui, opening)
}

/// Shows a session's library as the page does when it opens.
fn show_opened(session: &Page, rows: &Rows, opening: Opening) {
    let library = session.library();
    rows.opened(opening, &library.corpus(), &library.from_bundles(), 0.0);
}

/// Adds files (name, bytes) as the page does: a row each, then the queue.
fn add(session: &Page, rows: &Rows, files: Vec<(&str, Vec<u8>)>) {
    let files: Vec<File> = files
        .into_iter()
        .map(|(name, bytes)| File {
            key: rows.key(),
            name: name.into(),
            bytes,
        })
        .collect();
    let shown = files
        .iter()
        .map(|f| (f.key, f.name.clone(), f.bytes.len() as f64))
        .collect();
    let added = session.add(files).unwrap();
    rows.added(added, shown, &session.queue().queued_ids());
}

/// Runs the queue, showing every event; returns the statuses row `key` went through.
fn ingest(session: &Page, rows: &Rows, ui: Ui, key: u64) -> Vec<Status> {
    let seen = RefCell::new(Vec::new());
    run(session.ingest(&|event| {
        rows.show(event);
        let status = ui
            .rows
            .with_untracked(|r| r.iter().find(|r| r.key == key).map(|r| r.status.clone()));
        if let Some(status) = status {
            let mut seen = seen.borrow_mut();
            if seen.last() != Some(&status) {
                seen.push(status);
            }
        }
    }));
    seen.into_inner()
}

fn status_of(ui: Ui, name: &str) -> Status {
    ui.rows.with_untracked(|r| {
        r.iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("no row {name}"))
            .status
            .clone()
    })
}

#[test]
fn added_files_go_from_queued_to_stored_and_a_duplicate_or_a_non_pdf_says_why() {
    let (session, rows, ui, opening) = open(MemStore::default(), "m1");
    show_opened(&session, &rows, opening);
    assert!(matches!(
        ui.loaded.get_untracked(),
        Loaded::Ready { documents: 0, .. }
    ));
    let crazy = pdf("encrypted/crazyones.pdf");
    let beamer = pdf("pt/tutorialbeamer.pdf");
    let queued_bytes = (crazy.len() + beamer.len() + 9) as f64;
    add(
        &session,
        &rows,
        vec![
            ("crazyones.pdf", crazy.clone()),
            ("tutorialbeamer.pdf", beamer),
            ("notes.pdf", b"not a pdf".to_vec()),
        ],
    );
    add(&session, &rows, vec![("copy of crazyones.pdf", crazy)]);
    assert_eq!(ui.rows.with_untracked(Vec::len), 4);
    assert_eq!(
        status_of(ui, "copy of crazyones.pdf"),
        Status::Duplicate("crazyones.pdf".into())
    );
    assert_eq!(status_of(ui, "crazyones.pdf"), Status::Queued);
    // A duplicate is not work to do.
    assert_eq!(ui.progress.get_untracked().total_bytes, queued_bytes);
    let generation = ui.generation.get_untracked();

    let first = ui.rows.with_untracked(|r| r[0].key);
    let seen = ingest(&session, &rows, ui, first);
    // Each stage once, in order (embedding shows its count as it goes).
    let mut stages: Vec<&str> = seen
        .iter()
        .map(|s| match s {
            Status::Queued => "queued",
            Status::Parsing => "reading",
            Status::Waiting { .. } => "waiting",
            Status::Embedding { .. } => "embedding",
            s if s.is_stored() => "stored",
            _ => "other",
        })
        .collect();
    stages.dedup();
    assert_eq!(
        stages,
        ["queued", "reading", "waiting", "embedding", "stored"],
        "{seen:?}"
    );
    assert!(status_of(ui, "tutorialbeamer.pdf").is_stored());
    assert!(matches!(status_of(ui, "notes.pdf"), Status::Rejected(_)));
    ui.rows.with_untracked(|r| {
        let stored = r.iter().find(|r| r.name == "tutorialbeamer.pdf").unwrap();
        assert!(stored.pages.unwrap() > 0 && stored.chunks.unwrap() > 0);
    });
    // Idle: progress reset, not busy, and searches were told the documents changed.
    assert_eq!(ui.progress.get_untracked(), Progress::default());
    assert!(!ui.busy.get_untracked());
    assert!(ui.generation.get_untracked() > generation);
}

#[test]
fn results_name_their_document_and_page_and_a_deleted_document_leaves_its_row() {
    let (session, rows, ui, opening) = open(MemStore::default(), "m1");
    show_opened(&session, &rows, opening);
    add(
        &session,
        &rows,
        vec![("crazyones.pdf", pdf("encrypted/crazyones.pdf"))],
    );
    ingest(&session, &rows, ui, 1);
    let query = "the crazy ones, the misfits, the rebels";
    let hits = run(session.search(query, &[], false)).unwrap();
    let results = rows.results(&session.library().corpus(), hits, query);
    let top = &results[0];
    assert_eq!(top.doc_name, "crazyones.pdf");
    assert_eq!(top.page, 1);
    assert!(!top.lexical_only);
    assert!(
        top.runs.iter().any(|(_, marked)| *marked),
        "the query's words are marked: {:?}",
        top.runs
    );

    let (key, id) = ui
        .rows
        .with_untracked(|r| (r[0].key, r[0].id.clone().unwrap()));
    run(session.library().delete(&id)).unwrap();
    let generation = ui.generation.get_untracked();
    rows.deleted(key);
    assert!(ui.rows.with_untracked(Vec::is_empty));
    assert!(ui.generation.get_untracked() > generation);
}

#[test]
fn a_reopened_library_lists_its_documents_and_one_of_another_model_asks_to_reindex() {
    let (session, rows, ui, opening) = open(MemStore::default(), "m1");
    show_opened(&session, &rows, opening);
    add(
        &session,
        &rows,
        vec![("crazyones.pdf", pdf("encrypted/crazyones.pdf"))],
    );
    ingest(&session, &rows, ui, 1);
    let chunks = ui.rows.with_untracked(|r| r[0].chunks);
    let store = session.into_library().into_store();

    let (session, rows, ui, opening) = open(store, "m1");
    show_opened(&session, &rows, opening);
    ui.rows.with_untracked(|r| {
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].name, "crazyones.pdf");
        assert_eq!(
            r[0].chunks, chunks,
            "the same passages as when it was stored"
        );
        assert!(r[0].status.is_stored());
    });
    assert!(matches!(
        ui.loaded.get_untracked(),
        Loaded::Ready { documents: 1, .. }
    ));

    let store = session.into_library().into_store();
    let (session, rows, ui, opening) = open(store, "m2");
    show_opened(&session, &rows, opening);
    match ui.loaded.get_untracked() {
        Loaded::Mismatch { stored } => assert_eq!(stored.model_id, "m1"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_model_switch_empties_the_rows_then_every_document_returns_stored() {
    let (session, rows, ui, opening) = open(MemStore::default(), "m1");
    show_opened(&session, &rows, opening);
    add(
        &session,
        &rows,
        vec![
            ("crazyones.pdf", pdf("encrypted/crazyones.pdf")),
            ("tutorialbeamer.pdf", pdf("pt/tutorialbeamer.pdf")),
        ],
    );
    ingest(&session, &rows, ui, 1);
    let stale = run(session.begin_switch(&info("m2"), Local::new("m2"))).unwrap();
    rows.empty();
    assert!(ui.rows.with_untracked(Vec::is_empty));
    for meta in &stale {
        let pdf = run(session.library().store().pdf(&meta.id))
            .unwrap()
            .unwrap();
        let key = rows.key();
        rows.requeued(key, meta, pdf.len() as f64);
        session.queue().replace(key, meta, pdf);
    }
    assert!(ui
        .rows
        .with_untracked(|r| r.len() == 2 && r.iter().all(|r| r.status == Status::Queued)));
    ingest(&session, &rows, ui, 0);
    assert!(ui
        .rows
        .with_untracked(|r| r.len() == 2 && r.iter().all(|r| r.status.is_stored())));
}

fn status_of_key(ui: Ui, key: u64) -> Status {
    ui.rows
        .with_untracked(|r| r.iter().find(|r| r.key == key).unwrap().status.clone())
}

#[test]
fn dropped_files_show_at_once_and_keep_their_rows_when_read_one_by_one() {
    let (session, rows, ui, opening) = open(MemStore::default(), "m1");
    show_opened(&session, &rows, opening);
    let crazy = pdf("encrypted/crazyones.pdf");
    let sizes = [crazy.len() as f64, 1000.0, crazy.len() as f64];
    // Three files dropped: all shown queued and counted before any is read.
    let keys: Vec<u64> = ["crazyones.pdf", "gone.pdf", "again.pdf"]
        .iter()
        .zip(sizes)
        .map(|(name, size)| {
            let key = rows.key();
            rows.waiting(key, name.to_string(), size);
            key
        })
        .collect();
    assert_eq!(
        ui.progress.get_untracked().total_bytes,
        sizes.iter().sum::<f64>()
    );
    assert!(ui.rows.with_untracked(|r| r
        .iter()
        .all(|r| r.status == Status::Queued && r.id.is_none())));
    // The first read and queued: the same row, now with its id; the second never read; the
    // third a duplicate of the first: neither counted any more.
    let added = session
        .add(vec![File {
            key: keys[0],
            name: "crazyones.pdf".into(),
            bytes: crazy.clone(),
        }])
        .unwrap();
    rows.added(
        added,
        vec![(keys[0], "crazyones.pdf".into(), sizes[0])],
        &[],
    );
    rows.not_read(keys[1], Some(crate::AppError::File("NotFoundError".into())));
    let again = session
        .add(vec![File {
            key: keys[2],
            name: "again.pdf".into(),
            bytes: crazy,
        }])
        .unwrap();
    rows.added(again, vec![(keys[2], "again.pdf".into(), sizes[2])], &[]);
    assert_eq!(ui.rows.with_untracked(Vec::len), 3, "no row added twice");
    assert_eq!(ui.progress.get_untracked().total_bytes, sizes[0]);
    assert!(ui.rows.with_untracked(|r| r[0].id.is_some()));
    assert!(matches!(status_of_key(ui, keys[1]), Status::Failed(_)));
    assert_eq!(
        status_of_key(ui, keys[2]),
        Status::Duplicate("crazyones.pdf".into())
    );
    ingest(&session, &rows, ui, keys[0]);
    assert!(status_of_key(ui, keys[0]).is_stored());
}

#[test]
fn a_waiting_file_the_library_refuses_leaves_no_row() {
    let (_session, rows, ui, _) = open(MemStore::default(), "m1");
    let key = rows.key();
    rows.waiting(key, "late.pdf".into(), 1000.0);
    assert_eq!(ui.rows.get_untracked().len(), 1);
    rows.refused(key);
    assert!(ui.rows.get_untracked().is_empty());
    assert_eq!(ui.progress.get_untracked().total_bytes, 0.0);
}

mod imports;
mod versions;
