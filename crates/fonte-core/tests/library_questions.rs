//! Questions about the library answered from its records, on a real two-document library (an
//! English and a Portuguese PDF, read in-process, the fake encoder): counts, lists by language,
//! documents that mention a term; no search, no model.

use std::path::PathBuf;

use fonte_core::answer::library::{answer, recognise, Counted, LibraryAnswer};
use fonte_core::ingest::queue::File;
use fonte_core::session::fake::{info, Local};
use fonte_core::session::Session;
use fonte_core::store::MemStore;

fn pdf(rel: &str) -> Vec<u8> {
    let path = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("fixtures/pdfs")
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn library() -> Session<MemStore, Local> {
    let (s, _) = pollster::block_on(Session::open(
        MemStore::default(),
        &info("m1"),
        Local::new("m1"),
    ))
    .unwrap();
    let files = ["encrypted/crazyones.pdf", "pt/tutorialbeamer.pdf"]
        .iter()
        .enumerate()
        .map(|(i, rel)| File {
            key: i as u64,
            name: rel.rsplit('/').next().unwrap().into(),
            bytes: pdf(rel),
        })
        .collect();
    s.add(files).unwrap();
    pollster::block_on(s.ingest(&|_| {}));
    s
}

fn names(a: &LibraryAnswer) -> Vec<&str> {
    match a {
        LibraryAnswer::Documents(d) => d.iter().map(|d| d.name.as_str()).collect(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn counts_lists_and_mentions_come_from_the_records() {
    let s = library();
    let ask = |q: &str| s.with_corpus(|c| answer(&recognise(q).expect(q), c));
    let (pages, chunks) = s.with_corpus(|c| {
        let pages: usize = c.documents().iter().map(|d| d.pages as usize).sum();
        (pages, c.chunks().len())
    });
    assert_eq!(
        ask("How many documents are there?"),
        LibraryAnswer::Count {
            what: Counted::Documents,
            n: 2
        }
    );
    assert_eq!(
        ask("Quantas páginas há?"),
        LibraryAnswer::Count {
            what: Counted::Pages,
            n: pages
        }
    );
    assert!(pages > 2);
    assert_eq!(
        ask("how many passages does the library have"),
        LibraryAnswer::Count {
            what: Counted::Passages,
            n: chunks
        }
    );
    assert_eq!(names(&ask("Which documents are there?")).len(), 2);
    assert_eq!(
        names(&ask("Quais documentos estão em português?")),
        ["tutorialbeamer.pdf"]
    );
    assert_eq!(
        names(&ask("Which documents are in English?")),
        ["crazyones.pdf"]
    );
    // A term: only the documents holding it, with how often (accents and case folded).
    match ask("Quais documentos mencionam Beamer?") {
        LibraryAnswer::Documents(d) => {
            assert_eq!(d.len(), 1);
            assert_eq!(d[0].name, "tutorialbeamer.pdf");
            assert!(d[0].mentions.unwrap() > 5, "{d:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        names(&ask("Which documents mention the misfits?")),
        ["crazyones.pdf"]
    );
    assert!(names(&ask("which documents mention zebra quokka")).is_empty());
}

/// Every question of the project's question sets (content questions written for retrieval,
/// none with library questions in mind) stays a content question: the rule set's precision on
/// phrasings it was not written against.
#[test]
fn no_question_of_the_qa_sets_is_taken_for_a_library_question() {
    let shared = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/qa");
    let mut sets: Vec<PathBuf> = std::fs::read_dir(&own)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    sets.push(shared.join("fixtures/qa/debian_faq_en_pt_qa.jsonl"));
    let mut asked = 0;
    for set in sets
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
    {
        let text = std::fs::read_to_string(set).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            for key in ["q_en", "q_pt"] {
                let Some(q) = v[key].as_str() else { continue };
                asked += 1;
                assert_eq!(recognise(q), None, "{}: {q}", set.display());
            }
        }
    }
    assert!(asked > 400, "{asked} questions read");
    println!("{asked} questions of the QA sets: none taken for a library question");
}
