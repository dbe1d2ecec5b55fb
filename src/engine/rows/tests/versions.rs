//! The dates and versions the page shows: the generated editions of one text proposed as a
//! group (newest first, each with its cover's date), then, once confirmed, one current and
//! one older version, and a search result of the current one naming its version.

use std::path::Path;

use fonte_core::library::propose_versions;
use fonte_core::pdf::dates::PubDate;
use fonte_core::search::corpus::VersionNote;
use fonte_core::store::MemStore;

use super::{add, ingest, open, run, show_opened};
use crate::engine::rows::versions::versions;

fn edition(name: &str) -> (&str, Vec<u8>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/versions")
        .join(name);
    (name, std::fs::read(path).unwrap())
}

fn month(year: u16, month: u8) -> PubDate {
    PubDate {
        year,
        month: Some(month),
        day: None,
    }
}

#[test]
fn editions_are_proposed_then_shown_as_current_and_older() {
    let (session, rows, ui, opening) = open(MemStore::default(), "m1");
    show_opened(&session, &rows, opening);
    add(
        &session,
        &rows,
        vec![
            edition("house-rules-2023.pdf"),
            edition("house-rules-2025.pdf"),
            edition("compostagem.pdf"),
        ],
    );
    ingest(&session, &rows, ui, 0);
    let shown = versions(&session.library().corpus());
    assert_eq!(shown.proposals.len(), 1);
    assert_eq!(
        shown.proposals[0].members,
        vec![
            ("house-rules-2025.pdf".to_string(), Some(month(2025, 2))),
            ("house-rules-2023.pdf".to_string(), Some(month(2023, 3))),
        ]
    );
    assert!(!shown.any_superseded);

    let p = session.with_corpus(propose_versions).remove(0);
    run(session.library().group_versions(&p.ids, &p.name)).unwrap();
    let shown = versions(&session.library().corpus());
    assert!(shown.proposals.is_empty() && shown.any_superseded);
    let (new, old) = (&shown.docs[&p.ids[0]], &shown.docs[&p.ids[1]]);
    assert_eq!(
        new.note,
        Some(VersionNote::Current {
            date: month(2025, 2),
            supersedes: vec![month(2023, 3)],
        })
    );
    assert_eq!(old.superseded_by.as_deref(), Some("house-rules-2025.pdf"));

    let hits = run(session.search("monthly maintenance fee", &[], false)).unwrap();
    let results = rows.results(&session.library().corpus(), hits, "monthly maintenance fee");
    assert!(!results.is_empty());
    assert!(results.iter().all(|r| r.doc_name != "house-rules-2023.pdf"));
    let fee = results
        .iter()
        .find(|r| r.doc_name == "house-rules-2025.pdf")
        .unwrap();
    assert!(matches!(fee.version, Some(VersionNote::Current { .. })));
}
