//! A session as both front ends drive it, on `MemStore` with real PDFs, the fake encoder and
//! the scripted LLM: ingesting (duplicates skipped), searching, deleting, the abstention
//! threshold following the documents, the operation under way, a model switch, export and
//! import, and asking (abstained with no request at all, translated then answered, retried
//! after a failed stream).

use std::cell::Cell;
use std::path::PathBuf;

use fonte_core::answer::abstain::evidence;
use fonte_core::answer::ask::{prepare_question, reply, AskParams, Outcome, Request};
use fonte_core::answer::llm::fake::{Reply, Scripted};
use fonte_core::answer::llm::{Api, Endpoint, Failure};
use fonte_core::embed::fake::FakeEncoder;
use fonte_core::ingest::queue::{File, IngestEvent};
use fonte_core::search::lang::Lang;
use fonte_core::session::fake::{info, Local};
use fonte_core::session::{Operation, Session};
use fonte_core::share::bundle::{read, Meta};
use fonte_core::store::{MemStore, Store};
use fonte_core::Error;

fn pdf(rel: &str) -> Vec<u8> {
    let path = std::env::var_os("FONTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("fixtures/pdfs")
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run<T>(f: impl std::future::Future<Output = T>) -> T {
    pollster::block_on(f)
}

fn files(rels: &[&str]) -> Vec<File> {
    rels.iter()
        .enumerate()
        .map(|(i, rel)| File {
            key: i as u64 + 1,
            name: rel.rsplit('/').next().unwrap().into(),
            bytes: pdf(rel),
        })
        .collect()
}

type Page = Session<MemStore, Local>;

/// A session over a fresh `MemStore` holding the two fixtures (one English, one Portuguese).
fn session() -> Page {
    let (s, _) = run(Session::open(
        MemStore::default(),
        &info("m1"),
        Local::new("m1"),
    ))
    .unwrap();
    let added = s
        .add(files(&["encrypted/crazyones.pdf", "pt/tutorialbeamer.pdf"]))
        .unwrap();
    assert!(added.iter().all(|a| a.duplicate_of.is_none()));
    ingest(&s);
    s
}

fn ingest(s: &Page) -> Vec<IngestEvent<Error>> {
    let log = std::cell::RefCell::new(Vec::new());
    let seen = Cell::new(None);
    run(s.ingest(&|e| {
        seen.set(Some(s.operation()));
        log.borrow_mut().push(e)
    }));
    assert_eq!(s.operation(), Operation::Idle, "idle once done");
    if let Some(during) = seen.get() {
        assert!(matches!(
            during,
            Operation::Ingesting | Operation::Reindexing
        ));
    }
    log.into_inner()
}

fn endpoint() -> Endpoint {
    Endpoint {
        api: Api::OpenAi,
        base_url: "http://127.0.0.1:1/v1".into(),
        model: "tiny".into(),
        api_key: None,
        temperature: 0.0,
        max_tokens: 100,
    }
}

fn openai(text: &str) -> String {
    let delta = serde_json::json!({ "choices": [{ "delta": { "content": text } }] });
    format!("data: {delta}\n\ndata: [DONE]\n\n")
}

fn request(question: &str) -> Request<'_> {
    Request {
        question,
        turns: &[],
        params: AskParams::default(),
        translate: fonte_core::answer::ask::TranslateWith::Endpoint,
    }
}

/// The text of a chunk of document `name` in Portuguese: a question made of it finds it.
fn portuguese_chunk(s: &Page, name: &str) -> String {
    let corpus = s.library().corpus();
    let doc = corpus
        .documents()
        .iter()
        .position(|d| d.name == name)
        .unwrap() as u32;
    let c = corpus
        .chunks()
        .iter()
        .find(|c| c.doc == doc && Lang::detect(&c.chunk.text) == Some(Lang::Pt))
        .unwrap();
    c.chunk.text.clone()
}

#[test]
fn files_are_ingested_once_searched_and_deleted() {
    let s = session();
    assert_eq!(s.library().documents().len(), 2);
    let again = s.add(files(&["encrypted/crazyones.pdf"])).unwrap();
    assert_eq!(again[0].duplicate_of.as_deref(), Some("crazyones.pdf"));
    let hits = run(s.search("crazy ones misfits rebels", &[], false)).unwrap();
    let corpus = s.library().corpus();
    let top = &corpus.documents()[corpus.chunks()[hits[0].chunk as usize].doc as usize];
    assert_eq!(top.name, "crazyones.pdf");
    let id = top.id.clone();
    drop(corpus);
    // The word matches need no model (shown while it loads); a word in no passage finds none.
    let words = s.search_words("crazy ones misfits rebels", &[], false);
    let first = s.with_corpus(|c| {
        c.documents()[c.chunks()[words[0].chunk as usize].doc as usize]
            .id
            .clone()
    });
    assert_eq!(first, id);
    assert!(s.search_words("zzyzx", &[], false).is_empty());
    assert!(s.query_ready(), "the test services embed at once");
    // Scoped to the other document, only its passages come back.
    let other = s
        .library()
        .documents()
        .into_iter()
        .find(|d| d.id != id)
        .unwrap()
        .id;
    let scoped = run(s.search("crazy ones misfits rebels", &[other], false)).unwrap();
    let corpus = s.library().corpus();
    assert!(scoped
        .iter()
        .all(|h| corpus.documents()[corpus.chunks()[h.chunk as usize].doc as usize].id != id));
    drop(corpus);
    run(s.library().delete(&id)).unwrap();
    assert_eq!(s.library().documents().len(), 1);
    assert!(run(s.library().store().pdf(&id)).unwrap().is_none());
}

#[test]
fn the_threshold_is_calibrated_once_per_model_and_again_when_the_documents_change() {
    let s = session();
    let first = run(s.threshold())
        .unwrap()
        .expect("a library large enough to tell");
    let probes = s.services().queries();
    assert!(probes > 0);
    assert_eq!(run(s.threshold()).unwrap(), Some(first));
    assert_eq!(s.services().queries(), probes, "kept while nothing changed");
    s.add(files(&["en/R-FAQ.pdf"])).unwrap();
    ingest(&s);
    let after = run(s.threshold()).unwrap().unwrap();
    assert_eq!(
        s.services().queries(),
        probes,
        "the probes are embedded once"
    );
    assert_ne!(after, first, "calibrated again against the new passages");
}

#[test]
fn a_model_switch_reindexes_and_replaces_every_document() {
    let s = session();
    let before: Vec<fonte_core::DocId> =
        s.library().documents().into_iter().map(|d| d.id).collect();
    let stale = run(s.begin_switch(&info("m2"), Local::new("m2"))).unwrap();
    assert_eq!(stale.len(), 2, "every stored document is to be moved");
    for (key, meta) in stale.iter().enumerate() {
        let pdf = run(s.library().store().pdf(&meta.id)).unwrap().unwrap();
        s.queue().replace(key as u64 + 10, meta, pdf);
    }
    let during = Cell::new(Operation::Idle);
    run(s.ingest(&|_| during.set(s.operation())));
    assert_eq!(during.get(), Operation::Reindexing);
    assert_eq!(s.operation(), Operation::Idle);
    let after: Vec<fonte_core::DocId> = s.library().documents().into_iter().map(|d| d.id).collect();
    assert_eq!(after.len(), before.len());
    assert!(before.iter().all(|id| after.contains(id)));
    let stored = run(s.library().store().meta()).unwrap().unwrap();
    assert_eq!(stored.target().model_id, "m2");
}

#[test]
fn a_bundle_exported_from_one_session_imports_into_another_and_only_adds() {
    let s = session();
    let meta = Meta {
        title: "two".into(),
        description: String::new(),
        created: "2026-12-07T00:00:00Z".into(),
        pdfs: true,
    };
    let bytes = run(s.export(None, &meta)).unwrap();
    let (t, _) = run(Session::open(
        MemStore::default(),
        &info("m1"),
        Local::new("m1"),
    ))
    .unwrap();
    let mut seen = Vec::new();
    let imported = run(t.import(&bytes, &mut |done, of| seen.push((done, of)))).unwrap();
    assert_eq!(imported.added.len(), 2);
    assert_eq!(seen.last(), Some(&(2, 2)));
    assert_eq!(t.operation(), Operation::Idle);
    let again = run(t.import(&bytes, &mut |_, _| {})).unwrap();
    assert!(again.added.is_empty() && again.skipped.len() == 2);
    // Damaged: refused whole, nothing changed.
    let mut bad = bytes.clone();
    let at = bad.len() / 2;
    bad[at] ^= 0xff;
    assert!(run(t.import(&bad, &mut |_, _| {})).is_err());
    assert_eq!(t.library().documents().len(), 2);
}

#[test]
fn a_bundles_text_under_a_real_papers_id_is_replaced_when_the_real_pdf_is_dropped() {
    let s = session();
    let meta = Meta {
        title: "forged".into(),
        description: String::new(),
        created: "2026-12-07T00:00:00Z".into(),
        pdfs: false,
    };
    // A bundle that plants other text under crazyones.pdf's SHA-256 (no PDF to check it by).
    let mut bundle = read(&run(s.export(None, &meta)).unwrap()).unwrap();
    let crazy = bundle
        .documents
        .iter_mut()
        .find(|d| d.meta.name == "crazyones.pdf")
        .unwrap();
    for c in &mut crazy.chunks {
        c.text = "zebra quokka forged passage".into();
    }
    let id = crazy.meta.id.clone();
    let (t, _) = run(Session::open(
        MemStore::default(),
        &info("m1"),
        Local::new("m1"),
    ))
    .unwrap();
    run(t.import_bundle(bundle, &mut |_, _| {})).unwrap();
    assert_eq!(t.library().from_bundle(&id).as_deref(), Some("forged"));
    let forged = |t: &Page| {
        let hits = run(t.search("zebra quokka forged", &[], false)).unwrap();
        t.with_corpus(|c| {
            hits.iter()
                .any(|h| c.chunks()[h.chunk as usize].chunk.text.contains("quokka"))
        })
    };
    assert!(forged(&t));
    // The real file is not a duplicate of the bundle's copy: it is read and replaces it.
    let added = t.add(files(&["encrypted/crazyones.pdf"])).unwrap();
    assert_eq!(added[0].duplicate_of, None);
    ingest(&t);
    assert_eq!(t.library().from_bundle(&id), None);
    assert!(!forged(&t), "the forged text is gone");
    assert_eq!(t.library().documents().len(), 2);
    // Read here now: dropped again, a duplicate as any other.
    let again = t.add(files(&["encrypted/crazyones.pdf"])).unwrap();
    assert_eq!(again[0].duplicate_of.as_deref(), Some("crazyones.pdf"));
    // And the mark was stored: a reopened library knows it too.
    let store = t.into_library().into_store();
    let meta = run(store.meta()).unwrap().unwrap();
    assert!(meta.from_bundles.keys().all(|k| *k != id));
    assert_eq!(
        meta.from_bundles.len(),
        1,
        "the other document is still the bundle's"
    );
}

#[test]
fn an_abstained_question_makes_no_request_even_with_translation_on() {
    let s = session();
    assert_eq!(s.with_corpus(|c| c.languages()), [Lang::En, Lang::Pt]);
    let t = Scripted::new(vec![Ok(Reply::stream(&openai("x"), 4))]);
    // A question with no word the library holds: its vector is no closer than unrelated
    // questions get.
    let q = "???";
    let threshold = run(s.threshold()).unwrap().unwrap();
    let e = s.with_corpus(|c| evidence(&FakeEncoder::new("m1").embed(q), c.vectors()));
    assert!(e.is_none_or(|e| threshold.abstains(&e)));
    let asked = run(prepare_question(
        &s,
        &request(q),
        Some((&endpoint(), &t)),
        &mut |_| {},
    ))
    .unwrap();
    let answer = run(reply(asked.prepared, Some((&endpoint(), &t)), &mut |_| {})).unwrap();
    assert_eq!(answer.outcome, Outcome::AbstainedBeforeAsking);
    assert!(t.sent.borrow().is_empty(), "no request at all");
}

#[test]
fn a_question_in_the_other_language_is_translated_then_answered_and_retried() {
    let s = session();
    // A Portuguese question made of the Portuguese document's own words passes abstention.
    let q = portuguese_chunk(&s, "tutorialbeamer.pdf");
    let t = Scripted::new(vec![
        Ok(Reply::stream(&openai("How do I make slides?"), 5)),
        Ok(Reply::status(500, "")),
        Ok(Reply::stream(&openai("Com o beamer [1]."), 5)),
    ]);
    let e = endpoint();
    let asked = run(prepare_question(
        &s,
        &request(&q),
        Some((&e, &t)),
        &mut |_| {},
    ))
    .unwrap();
    assert!(!asked.stopped);
    assert_eq!(t.sent.borrow().len(), 1, "the translation");
    assert!(t.sent.borrow()[0].body.contains("into English"));
    let failed = run(reply(asked.prepared.clone(), Some((&e, &t)), &mut |_| {}));
    assert!(matches!(failed, Err(Failure::Server { .. })), "{failed:?}");
    let answer = run(reply(asked.prepared, Some((&e, &t)), &mut |_| {})).unwrap();
    assert_eq!(answer.outcome, Outcome::Answered);
    assert_eq!(answer.translations.len(), 1);
    let sent = t.sent.borrow();
    assert_eq!(sent.len(), 3);
    assert_eq!(
        sent[1].body, sent[2].body,
        "the retry resends the same prompt"
    );
}
