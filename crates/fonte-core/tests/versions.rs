//! Versions of one text in a real library: two generated editions of a cooperative's rules
//! (same title and wording, three numbers changed, dated on their covers) and an unrelated
//! document are read in-process; the editions are proposed as one group, unrelated fixture
//! PDFs (an English and a Portuguese translation of one FAQ, two documents of one template)
//! are not; once confirmed, the older edition is left out of the evidence unless all versions
//! are asked for, and what was decided survives reopening the library.

use std::path::{Path, PathBuf};

use fonte_core::answer::library::{answer, recognise, LibraryAnswer};
use fonte_core::ingest::queue::File;
use fonte_core::library::propose_versions;
use fonte_core::pdf::dates::{DateSource, PubDate};
use fonte_core::search::corpus::{DateFrom, Standing};
use fonte_core::search::retrieve::Search;
use fonte_core::session::fake::{info, Local};
use fonte_core::session::Session;
use fonte_core::store::MemStore;
use fonte_core::DocId;

fn versions(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/versions")
        .join(name)
}

fn shared(rel: &str) -> PathBuf {
    std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("fixtures/pdfs")
        .join(rel)
}

fn open(store: MemStore) -> Session<MemStore, Local> {
    pollster::block_on(Session::open(store, &info("m1"), Local::new("m1")))
        .unwrap()
        .0
}

fn add(s: &Session<MemStore, Local>, paths: &[PathBuf]) {
    let files = paths
        .iter()
        .enumerate()
        .map(|(i, p)| File {
            key: i as u64,
            name: p.file_name().unwrap().to_string_lossy().into(),
            bytes: std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        })
        .collect();
    s.add(files).unwrap();
    pollster::block_on(s.ingest(&|_| {}));
}

fn id_of(s: &Session<MemStore, Local>, name: &str) -> DocId {
    s.library()
        .documents()
        .into_iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("{name} not stored"))
        .id
}

/// Names of the documents of the passages found for `query`.
fn found(s: &Session<MemStore, Local>, query: &str, all_versions: bool) -> Vec<String> {
    s.with_corpus(|c| {
        let hits = c.search(&Search::new(query, None).all_versions(all_versions));
        let mut names: Vec<String> = hits
            .iter()
            .map(|h| {
                c.documents()[c.chunks()[h.chunk as usize].doc as usize]
                    .name
                    .clone()
            })
            .collect();
        names.sort();
        names.dedup();
        names
    })
}

#[test]
fn two_editions_are_proposed_confirmed_and_the_older_left_out_of_the_evidence() {
    let s = open(MemStore::default());
    add(
        &s,
        &[
            versions("house-rules-2023.pdf"),
            versions("house-rules-2025.pdf"),
            versions("compostagem.pdf"),
        ],
    );
    let (old, new) = (
        id_of(&s, "house-rules-2023.pdf"),
        id_of(&s, "house-rules-2025.pdf"),
    );
    // Each cover's date, with where it came from; when it was added.
    let docs = s.library().documents();
    let about = |id: &DocId| docs.iter().find(|d| d.id == *id).unwrap().about.clone();
    let published = about(&new).published.unwrap();
    assert_eq!(
        published.date,
        PubDate {
            year: 2025,
            month: Some(2),
            day: None
        }
    );
    assert_eq!(published.from, DateFrom::File(DateSource::Text { page: 1 }));
    assert!(about(&old).added.is_some());

    let proposals = s.with_corpus(propose_versions);
    assert_eq!(proposals.len(), 1, "{proposals:?}");
    assert_eq!(
        proposals[0].ids,
        vec![new.clone(), old.clone()],
        "newest first"
    );
    assert_eq!(
        proposals[0].name,
        "Riverside Housing Cooperative House Rules"
    );

    // Questions about the library by date, from the same records.
    let names = |q: &str| match s.with_corpus(|c| answer(&recognise(q).unwrap(), c)) {
        LibraryAnswer::Documents(d) => d.into_iter().map(|d| d.name).collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        names("Which is the newest document?"),
        ["house-rules-2025.pdf"]
    );
    assert_eq!(
        names("qual o documento mais antigo?"),
        ["house-rules-2023.pdf"]
    );
    assert_eq!(names("Quais documentos são de 2024?"), ["compostagem.pdf"]);
    // Added in the same millisecond here: ties are all listed.
    assert!(!names("What was the last document added?").is_empty());

    // Before confirming, both editions answer.
    let fee = "monthly maintenance fee reais";
    assert_eq!(
        found(&s, fee, false),
        ["house-rules-2023.pdf", "house-rules-2025.pdf"]
    );
    pollster::block_on(
        s.library()
            .group_versions(&proposals[0].ids, &proposals[0].name),
    )
    .unwrap();
    let standings = s.with_corpus(|c| c.standings());
    let n = |id: &DocId| s.with_corpus(|c| c.document_number(id).unwrap());
    assert_eq!(
        standings[n(&old) as usize],
        Standing::Superseded { by: n(&new) }
    );
    assert_eq!(found(&s, fee, false), ["house-rules-2025.pdf"]);
    assert_eq!(
        found(&s, fee, true),
        ["house-rules-2023.pdf", "house-rules-2025.pdf"]
    );
    assert!(
        s.with_corpus(propose_versions).is_empty(),
        "grouped: nothing left to propose"
    );

    // The decision is the library's: reopened from its store, the older edition stays out.
    let store = s.into_library().into_store();
    let s = open(store);
    assert_eq!(found(&s, fee, false), ["house-rules-2025.pdf"]);

    // A date given by the person decides; taken back, the cover's decides again.
    let edited = PubDate {
        year: 2026,
        month: None,
        day: None,
    };
    pollster::block_on(s.library().set_published(&old, Some(edited))).unwrap();
    assert_eq!(
        found(&s, fee, false),
        ["house-rules-2023.pdf"],
        "the date given decides"
    );
    pollster::block_on(s.library().set_published(&old, None)).unwrap();
    assert_eq!(found(&s, fee, false), ["house-rules-2025.pdf"]);

    // Declined: out of the group and never proposed together again.
    pollster::block_on(s.library().declare_distinct(&[old.clone(), new.clone()])).unwrap();
    assert_eq!(
        found(&s, fee, false),
        ["house-rules-2023.pdf", "house-rules-2025.pdf"]
    );
    assert!(s.with_corpus(propose_versions).is_empty());
}

#[test]
fn unrelated_documents_are_not_proposed() {
    let s = open(MemStore::default());
    let rels = [
        "en/debian-faq.en.pdf",
        "pt/debian-faq.pt.pdf",
        "pt/abntex2-modelo-artigo.pdf",
        "pt/abntex2-modelo-trabalho-academico.pdf",
        "en/R-FAQ.pdf",
        "pt/tutorialbeamer.pdf",
    ];
    add(&s, &rels.map(shared));
    add(
        &s,
        &[
            versions("compostagem.pdf"),
            versions("house-rules-2025.pdf"),
        ],
    );
    assert_eq!(s.library().documents().len(), 8);
    assert_eq!(s.with_corpus(propose_versions), vec![]);
}
