//! The ingestion queue on real PDFs (`../shared/fixtures/pdfs`), a [`MemStore`] and the fake
//! encoder: reading is the core's own (what the browser's reader worker runs), embedding is
//! deterministic, and each platform failure the browser can meet is injected here.

use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;

use fonte_core::embed::fake::FakeEncoder;
use fonte_core::ingest::queue::{File, IngestEvent, Queue, Services};
use fonte_core::ingest::reader::{Reader, Reply, Request};
use fonte_core::ingest::{prepare, Prepared};
use fonte_core::library::{Library, Opening};
use fonte_core::pdf::{RejectReason, Report};
use fonte_core::search::chunk::ChunkParams;
use fonte_core::search::corpus::BuildInfo;
use fonte_core::search::corpus::Corpus;
use fonte_core::search::retrieve::{Mode, Search};
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

fn info(model: &str) -> BuildInfo {
    BuildInfo {
        model_id: model.into(),
        dim: FakeEncoder::DIM,
        chunk_params: ChunkParams::default(),
    }
}

fn run<T>(f: impl std::future::Future<Output = T>) -> T {
    pollster::block_on(f)
}

/// In-process services: the core reader, the fake encoder of `model`, and switches that make
/// embedding fail or cancel the queue part way.
struct Local {
    model: String,
    reader: RefCell<Reader>,
    embedded: Cell<usize>,
    fail_embedding: Cell<bool>,
    cancel_after: Option<(Rc<Queue>, usize)>,
    /// A search asks for this document once this many chunks are embedded.
    prefer_after: Option<(Rc<Queue>, usize, fonte_core::DocId)>,
    /// Texts per embedding call the queue is asked for, and the sizes it gave.
    slice: usize,
    calls: RefCell<Vec<usize>>,
}

impl Local {
    fn new(model: &str) -> Self {
        Self {
            model: model.into(),
            reader: RefCell::new(Reader::new()),
            embedded: Cell::new(0),
            fail_embedding: Cell::new(false),
            cancel_after: None,
            prefer_after: None,
            slice: 1,
            calls: RefCell::new(Vec::new()),
        }
    }
}

impl Services for Local {
    type Error = Error;

    async fn open(
        &self,
        _name: &str,
        bytes: &[u8],
        password: Option<&str>,
    ) -> Result<Option<Report>, Error> {
        let request = Request::Open {
            password: password.map(String::from),
        };
        match self.reader.borrow_mut().handle(request, bytes, &mut |_| {}) {
            Reply::Opened(report) => Ok(report),
            other => Err(Error::Index(format!("{other:?}"))),
        }
    }

    async fn read(
        &self,
        name: &str,
        bytes: &[u8],
        password: Option<&str>,
        params: ChunkParams,
    ) -> Result<Result<Prepared, Report>, Error> {
        // Words stand in for model tokens: the chunker is tested with the real tokenizer
        // elsewhere, the queue does not depend on it.
        let count = |s: &str| s.split_whitespace().count();
        let password = password.map(str::as_bytes);
        Ok(Ok(prepare(name, bytes, password, params, &count)))
    }

    async fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, Error> {
        if self.fail_embedding.get() {
            return Err(Error::Model("the runtime stopped".into()));
        }
        self.embedded.set(self.embedded.get() + texts.len());
        self.calls.borrow_mut().push(texts.len());
        if let Some((queue, after)) = &self.cancel_after {
            if self.embedded.get() >= *after {
                queue.cancel();
            }
        }
        if let Some((queue, after, id)) = &self.prefer_after {
            if self.embedded.get() >= *after {
                queue.prefer(id);
            }
        }
        let mut encoder = FakeEncoder::new(&self.model);
        Ok(texts.iter().map(|t| encoder.embed(t)).collect())
    }

    fn slice(&self) -> usize {
        self.slice
    }
}

/// Every event of a run, in order.
type Log = RefCell<Vec<IngestEvent<Error>>>;

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

fn drive(queue: &Queue, library: &Library<MemStore>, services: &Local) -> Vec<IngestEvent<Error>> {
    let log: Log = RefCell::new(Vec::new());
    run(queue.run(library, services, &|e| log.borrow_mut().push(e)));
    log.into_inner()
}

/// The last event about `key` other than `Left`, progress and warnings.
fn outcome(log: &[IngestEvent<Error>], key: u64) -> &IngestEvent<Error> {
    log.iter()
        .rev()
        .find(|e| match e {
            IngestEvent::Stored { key: k, .. }
            | IngestEvent::Rejected { key: k, .. }
            | IngestEvent::Cancelled { key: k }
            | IngestEvent::StorageFull { key: k }
            | IngestEvent::Failed { key: k, .. } => *k == key,
            _ => false,
        })
        .unwrap_or_else(|| panic!("no outcome for {key}: {log:#?}"))
}

fn position(log: &[IngestEvent<Error>], want: impl Fn(&IngestEvent<Error>) -> bool) -> usize {
    log.iter().position(want).expect("event present")
}

#[test]
fn files_are_stored_searchable_and_duplicates_skipped() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    let mut batch = files(&["encrypted/crazyones.pdf", "pt/tutorialbeamer.pdf"]);
    batch.push(File {
        key: 3,
        name: "copy.pdf".into(),
        bytes: pdf("encrypted/crazyones.pdf"),
    });
    let added = queue.add(&library, batch).unwrap();
    assert_eq!(added[2].duplicate_of.as_deref(), Some("crazyones.pdf"));
    assert_eq!(added[0].duplicate_of, None);
    let services = Local::new("m1");
    let log = drive(&queue, &library, &services);
    assert!(matches!(outcome(&log, 1), IngestEvent::Stored { .. }));
    assert!(matches!(outcome(&log, 2), IngestEvent::Stored { .. }));
    assert!(matches!(log.last(), Some(IngestEvent::Idle)));
    // Every chunk was embedded once, and each file left the queue once.
    assert_eq!(services.embedded.get(), library.corpus().chunks().len());
    let left = log
        .iter()
        .filter(|e| matches!(e, IngestEvent::Left { .. }))
        .count();
    assert_eq!(left, 2);
    // Stored, searchable, no pending copy, the index saved.
    let store = library.store();
    assert_eq!(run(store.documents()).unwrap().len(), 2);
    assert!(run(store.pending()).unwrap().is_empty());
    assert!(run(store.index()).unwrap().is_some());
    let query = FakeEncoder::new("m1").embed("Here's to the crazy ones");
    let hits = library
        .corpus()
        .search(&Search::new("crazy ones misfits rebels", Some(&query)).depth(3));
    let corpus = library.corpus();
    let top = &corpus.documents()[corpus.chunks()[hits[0].chunk as usize].doc as usize];
    assert_eq!(top.name, "crazyones.pdf");
    drop(corpus);
    // Adding the same file later is a duplicate of the stored one.
    let again = queue
        .add(&library, files(&["pt/tutorialbeamer.pdf"]))
        .unwrap();
    assert_eq!(again[0].duplicate_of.as_deref(), Some("tutorialbeamer.pdf"));
    assert!(queue.is_empty());
}

#[test]
fn unreadable_files_are_reported_before_any_embedding_and_a_password_unlocks() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    let batch = files(&[
        "encrypted/crazyones.pdf",
        "malformed/invalid.pdf",
        "encrypted/r4-user-password.pdf",
        "scanned/linn.pdf",
    ]);
    queue.add(&library, batch).unwrap();
    let services = Local::new("m1");
    let log = drive(&queue, &library, &services);
    let first_embedding = position(&log, |e| matches!(e, IngestEvent::Embedding { .. }));
    let rejected_at = |key| {
        position(
            &log,
            move |e| matches!(e, IngestEvent::Rejected { key: k, .. } if *k == key),
        )
    };
    assert!(rejected_at(2) < first_embedding, "not a PDF, at once");
    assert!(
        rejected_at(3) < first_embedding,
        "a password needed, at once"
    );
    assert!(
        matches!(
            outcome(&log, 2),
            IngestEvent::Rejected {
                report: Report::Rejected {
                    reason: RejectReason::Malformed { .. }
                },
                locked: false,
                ..
            }
        ),
        "{:?}",
        outcome(&log, 2)
    );
    assert!(matches!(
        outcome(&log, 3),
        IngestEvent::Rejected {
            report: Report::Rejected {
                reason: RejectReason::NeedsPassword
            },
            locked: true,
            ..
        }
    ));
    // A scan opens but has no text layer: rejected once read.
    assert!(matches!(
        outcome(&log, 4),
        IngestEvent::Rejected {
            report: Report::Rejected {
                reason: RejectReason::NoTextLayer
            },
            ..
        }
    ));
    assert!(matches!(outcome(&log, 1), IngestEvent::Stored { .. }));
    assert!(
        run(library.store().pending()).unwrap().is_empty(),
        "no orphan pending copy"
    );
    // The password: the same row goes on and is stored.
    assert_eq!(queue.unlock(3, "asdfzxcv".into()), Some(15540));
    assert_eq!(queue.unlock(3, "asdfzxcv".into()), None, "unlocked once");
    let log = drive(&queue, &library, &services);
    assert!(
        matches!(outcome(&log, 3), IngestEvent::Stored { .. }),
        "{log:#?}"
    );
    assert_eq!(library.documents().len(), 2);
}

#[test]
fn a_wrong_password_is_rejected_again_and_stays_unlockable() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    queue
        .add(&library, files(&["encrypted/r4-user-password.pdf"]))
        .unwrap();
    let services = Local::new("m1");
    drive(&queue, &library, &services);
    queue.unlock(1, "wrong".into()).unwrap();
    let log = drive(&queue, &library, &services);
    assert!(matches!(
        outcome(&log, 1),
        IngestEvent::Rejected { locked: true, .. }
    ));
    assert!(queue.unlock(1, "asdfzxcv".into()).is_some());
}

#[test]
fn cancel_stops_after_the_current_slice_and_keeps_nothing() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Rc::new(Queue::new());
    queue
        .add(
            &library,
            files(&["pt/tutorialbeamer.pdf", "encrypted/crazyones.pdf"]),
        )
        .unwrap();
    let mut services = Local::new("m1");
    services.cancel_after = Some((queue.clone(), 2));
    let log = drive(&queue, &library, &services);
    assert!(matches!(outcome(&log, 1), IngestEvent::Cancelled { .. }));
    assert!(matches!(outcome(&log, 2), IngestEvent::Cancelled { .. }));
    assert_eq!(
        services.embedded.get(),
        2,
        "stopped after the current slice"
    );
    assert!(library.documents().is_empty());
    assert!(run(library.store().pending()).unwrap().is_empty());
    // A later run starts afresh.
    queue
        .add(&library, files(&["encrypted/crazyones.pdf"]))
        .unwrap();
    services.cancel_after = None;
    let log = drive(&queue, &library, &services);
    assert!(matches!(outcome(&log, 1), IngestEvent::Stored { .. }));
}

#[test]
fn a_full_storage_is_reported_per_file_and_leaves_no_pending_copy() {
    let small = pdf("encrypted/crazyones.pdf");
    // Room for the PDF kept as pending, not for the document with its chunks and vectors.
    let store = MemStore::with_quota(small.len() + 100);
    let (library, _) = run(Library::open(store, &info("m1"))).unwrap();
    let queue = Queue::new();
    queue
        .add(
            &library,
            files(&["encrypted/crazyones.pdf", "pt/tutorialbeamer.pdf"]),
        )
        .unwrap();
    let services = Local::new("m1");
    let log = drive(&queue, &library, &services);
    // The large file's bytes alone do not fit: refused before any of its slow work.
    assert!(matches!(outcome(&log, 2), IngestEvent::StorageFull { .. }));
    let refused = position(&log, |e| matches!(e, IngestEvent::StorageFull { key: 2 }));
    assert!(refused < position(&log, |e| matches!(e, IngestEvent::Reading { .. })));
    // The small one is read and embedded, then does not fit either.
    assert!(matches!(outcome(&log, 1), IngestEvent::StorageFull { .. }));
    assert!(services.embedded.get() > 0);
    assert!(library.documents().is_empty());
    assert!(
        run(library.store().pending()).unwrap().is_empty(),
        "no orphan"
    );
    // Said once per file: the batch stored nothing, so it does not write the index either.
    assert!(!log.iter().any(|e| matches!(e, IngestEvent::Warning { .. })));
}

#[test]
fn a_failed_embedding_keeps_the_file_pending_to_resume_on_the_next_visit() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    queue
        .add(&library, files(&["encrypted/crazyones.pdf"]))
        .unwrap();
    let services = Local::new("m1");
    services.fail_embedding.set(true);
    let log = drive(&queue, &library, &services);
    assert!(matches!(
        outcome(&log, 1),
        IngestEvent::Failed {
            error: Error::Model(_),
            ..
        }
    ));
    assert!(library.documents().is_empty());
    // The next visit: the file is offered again and goes through.
    let store = library.into_store();
    let (library, _) = run(Library::open(store, &info("m1"))).unwrap();
    let pending = run(library.store().pending()).unwrap();
    assert_eq!(pending.len(), 1);
    let queue = Queue::new();
    let resumed = pending
        .into_iter()
        .map(|p| File {
            key: 7,
            bytes: run(library.store().pending_bytes(&p.id)).unwrap().unwrap(),
            name: p.name,
        })
        .collect();
    queue.add(&library, resumed).unwrap();
    services.fail_embedding.set(false);
    let log = drive(&queue, &library, &services);
    assert!(matches!(outcome(&log, 7), IngestEvent::Stored { .. }));
    assert!(run(library.store().pending()).unwrap().is_empty());
}

#[test]
fn another_model_refuses_files_until_switched_and_the_switch_replaces_in_place() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    queue
        .add(
            &library,
            files(&["encrypted/crazyones.pdf", "pt/tutorialbeamer.pdf"]),
        )
        .unwrap();
    drive(&queue, &library, &Local::new("m1"));
    let store = library.into_store();
    let (library, opening) = run(Library::open(store, &info("m2"))).unwrap();
    assert!(matches!(opening, Opening::Mismatch { .. }));
    let refused = queue.add(&library, files(&["encrypted/unencrypted.pdf"]));
    assert!(matches!(refused, Err(Error::Mismatch)));
    assert!(queue.is_empty());
    // The switch: each stored document is queued from its stored PDF and replaces its copy.
    let stale = run(library.begin_switch(&info("m2"))).unwrap();
    for (i, meta) in stale.iter().enumerate() {
        let bytes = run(library.store().pdf(&meta.id)).unwrap().unwrap();
        queue.replace(10 + i as u64, meta, bytes);
    }
    let log = drive(&queue, &library, &Local::new("m2"));
    assert!(matches!(outcome(&log, 10), IngestEvent::Stored { .. }));
    assert!(matches!(outcome(&log, 11), IngestEvent::Stored { .. }));
    let stored = run(library.store().documents()).unwrap();
    assert_eq!(stored.len(), 2, "replaced, not duplicated");
    assert!(stored.iter().all(|d| d.build == Some(info("m2"))));
    // The switch is over: the library opens as m2's with both documents.
    let store = library.into_store();
    let (library, opening) = run(Library::open(store, &info("m2"))).unwrap();
    assert!(matches!(opening, Opening::Ready { ref stale, .. } if stale.is_empty()));
    assert_eq!(library.documents().len(), 2);
}

#[test]
fn files_added_while_running_join_the_same_run() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    queue
        .add(&library, files(&["encrypted/crazyones.pdf"]))
        .unwrap();
    let services = Local::new("m1");
    let added = Cell::new(false);
    let log: Log = RefCell::new(Vec::new());
    run(queue.run(&library, &services, &|e| {
        if matches!(e, IngestEvent::Stored { .. }) && !added.replace(true) {
            let more = vec![File {
                key: 9,
                name: "tutorialbeamer.pdf".into(),
                bytes: pdf("pt/tutorialbeamer.pdf"),
            }];
            queue.add(&library, more).unwrap();
        }
        log.borrow_mut().push(e);
    }));
    let log = log.into_inner();
    assert!(matches!(outcome(&log, 9), IngestEvent::Stored { .. }));
    assert_eq!(library.documents().len(), 2);
    assert!(!queue.is_running());
}

#[test]
fn a_run_with_nothing_queued_ends_the_switch_of_an_empty_library() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    assert!(run(library.begin_switch(&info("m2"))).unwrap().is_empty());
    let queue = Queue::new();
    let log = drive(&queue, &library, &Local::new("m2"));
    assert!(matches!(log.as_slice(), [IngestEvent::Idle]), "{log:#?}");
    let meta = run(library.store().meta()).unwrap().unwrap();
    assert_eq!((meta.info, meta.next), (info("m2"), None));
}

/// What a search finds for the last chunk of the document being embedded, seen from inside the
/// run (the moment the queue announces each slice).
#[derive(Debug, PartialEq)]
struct Seen {
    done: usize,
    by_words: bool,
    by_vector: bool,
    saved_with_it: bool,
}

#[test]
fn a_file_is_searchable_by_its_words_while_it_embeds_and_by_vector_as_each_vector_comes() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    queue
        .add(&library, files(&["pt/tutorialbeamer.pdf"]))
        .unwrap();
    let services = Local::new("m1");
    let seen = RefCell::new(Vec::new());
    let on = |e: IngestEvent<Error>| {
        let IngestEvent::Embedding { done, total, .. } = e else {
            return;
        };
        let corpus = library.corpus();
        let last = corpus.chunks().len() as u32 - 1;
        let text = corpus.chunks()[last as usize].chunk.text.clone();
        let vector = FakeEncoder::new("m1").embed(&text);
        let words = corpus.search(&Search::new(&text, None).mode(Mode::Lexical).depth(3));
        let dense = corpus.search(&Search::new("", Some(&vector)).mode(Mode::Dense).depth(3));
        // The index saved now (a deletion elsewhere saves it) must not hold it: it is not
        // stored yet.
        let saved = Corpus::from_bytes(&corpus.to_bytes().unwrap()).unwrap();
        if done == 0 || done + 1 == total {
            seen.borrow_mut().push(Seen {
                done,
                by_words: words.first().map(|h| h.chunk) == Some(last) && !corpus.has_vector(last),
                by_vector: dense.iter().any(|h| h.chunk == last),
                saved_with_it: !saved.documents().is_empty(),
            });
        }
        // A chunk already embedded is found by its vector.
        if done > 0 {
            let first = corpus.chunks()[0].chunk.text.clone();
            let v = FakeEncoder::new("m1").embed(&first);
            let hits = corpus.search(&Search::new("", Some(&v)).mode(Mode::Dense).depth(1));
            assert_eq!(hits[0].chunk, 0, "embedded chunks are searchable by vector");
            assert!(corpus.has_vector(0));
        }
    };
    run(queue.run(&library, &services, &on));
    let seen = seen.into_inner();
    assert_eq!(seen.len(), 2, "{seen:?}");
    for s in &seen {
        assert!(s.by_words && !s.by_vector && !s.saved_with_it, "{s:?}");
    }
    // Stored: the last chunk is found by its vector too, and saved.
    let corpus = library.corpus();
    let last = corpus.chunks().len() as u32 - 1;
    assert!(corpus.has_vector(last));
    let text = corpus.chunks()[last as usize].chunk.text.clone();
    let vector = FakeEncoder::new("m1").embed(&text);
    let dense = corpus.search(&Search::new("", Some(&vector)).mode(Mode::Dense).depth(1));
    assert_eq!(dense[0].chunk, last);
    assert!(!corpus.is_provisional(0));
    let saved = Corpus::from_bytes(&corpus.to_bytes().unwrap()).unwrap();
    assert_eq!(saved.chunks().len(), corpus.chunks().len());
}

#[test]
fn a_file_that_fails_or_is_cancelled_while_it_embeds_leaves_the_search() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    // One stored document, so the provisional one is not alone.
    let queue = Rc::new(Queue::new());
    queue
        .add(&library, files(&["encrypted/crazyones.pdf"]))
        .unwrap();
    let mut services = Local::new("m1");
    drive(&queue, &library, &services);
    let stored = library.corpus().chunks().len();
    queue
        .add(&library, files(&["pt/tutorialbeamer.pdf"]))
        .unwrap();
    services.embedded.set(0);
    services.cancel_after = Some((queue.clone(), 3));
    let searchable_meanwhile = Cell::new(false);
    let on = |e: IngestEvent<Error>| {
        if let IngestEvent::Embedding { done: 2, .. } = e {
            searchable_meanwhile.set(library.corpus().chunks().len() > stored);
        }
    };
    run(queue.run(&library, &services, &on));
    assert!(searchable_meanwhile.get());
    assert_eq!(
        library.documents().len(),
        1,
        "the cancelled file left the search"
    );
    assert_eq!(library.corpus().chunks().len(), stored);
    // The stored one still answers by words and by vector.
    let hits = library
        .corpus()
        .search(&Search::new("crazy ones", None).mode(Mode::Lexical).depth(1));
    assert!(!hits.is_empty());
}

#[test]
fn every_queued_file_is_read_and_searchable_by_its_words_before_the_first_is_embedded() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    queue
        .add(
            &library,
            files(&["pt/tutorialbeamer.pdf", "encrypted/crazyones.pdf"]),
        )
        .unwrap();
    let services = Local::new("m1");
    let documents_at_first_embedding = Cell::new(None);
    let log: Log = RefCell::new(Vec::new());
    let on = |e: IngestEvent<Error>| {
        if matches!(
            e,
            IngestEvent::Embedding {
                key: 1,
                done: 0,
                ..
            }
        ) {
            let hits = library.corpus().search(
                &Search::new("crazy ones misfits", None)
                    .mode(Mode::Lexical)
                    .depth(1),
            );
            let corpus = library.corpus();
            let found = hits.first().map(|h| {
                corpus.documents()[corpus.chunks()[h.chunk as usize].doc as usize]
                    .name
                    .clone()
            });
            documents_at_first_embedding.set(Some((corpus.documents().len(), found)));
        }
        log.borrow_mut().push(e);
    };
    run(queue.run(&library, &services, &on));
    let log = log.into_inner();
    let read_second = position(&log, |e| {
        matches!(
            e,
            IngestEvent::Read {
                key: 2,
                searchable: true,
                ..
            }
        )
    });
    let first_embedding = position(&log, |e| matches!(e, IngestEvent::Embedding { key: 1, .. }));
    assert!(read_second < first_embedding, "{log:#?}");
    assert_eq!(
        documents_at_first_embedding.take(),
        Some((2, Some("crazyones.pdf".to_string()))),
        "the second file answers by its words while the first embeds"
    );
    assert!(matches!(outcome(&log, 1), IngestEvent::Stored { .. }));
    assert!(matches!(outcome(&log, 2), IngestEvent::Stored { .. }));
}

#[test]
fn cancel_drops_the_files_read_and_waiting_too() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Rc::new(Queue::new());
    queue
        .add(
            &library,
            files(&["pt/tutorialbeamer.pdf", "encrypted/crazyones.pdf"]),
        )
        .unwrap();
    let mut services = Local::new("m1");
    services.cancel_after = Some((queue.clone(), 1));
    let log = drive(&queue, &library, &services);
    assert!(matches!(outcome(&log, 1), IngestEvent::Cancelled { .. }));
    assert!(matches!(outcome(&log, 2), IngestEvent::Cancelled { .. }));
    assert!(library.documents().is_empty(), "both left the search");
    assert!(run(library.store().pending()).unwrap().is_empty());
    let left = log
        .iter()
        .filter(|e| matches!(e, IngestEvent::Left { .. }))
        .count();
    assert_eq!(left, 2);
}

#[test]
fn the_first_pages_of_every_file_are_embedded_before_the_rest_of_any() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    // A long file first, a short one after it.
    queue
        .add(
            &library,
            files(&["pt/abntex2.pdf", "encrypted/crazyones.pdf"]),
        )
        .unwrap();
    let services = Local::new("m1");
    // When the second file's first chunks have vectors, the first is still embedding.
    let second_by_vector_while_first_embeds = Cell::new(false);
    let log: Log = RefCell::new(Vec::new());
    let on = |e: IngestEvent<Error>| {
        if let IngestEvent::Embedding { key: 1, done, .. } = e {
            if done > fonte_core::ingest::queue::HEAD {
                let corpus = library.corpus();
                let (second, _) = corpus
                    .chunks()
                    .iter()
                    .enumerate()
                    .find(|(_, c)| corpus.documents()[c.doc as usize].name == "crazyones.pdf")
                    .expect("the second file is searchable");
                if corpus.has_vector(second as u32) {
                    second_by_vector_while_first_embeds.set(true);
                }
            }
        }
        log.borrow_mut().push(e);
    };
    run(queue.run(&library, &services, &on));
    let log = log.into_inner();
    let total = log
        .iter()
        .find_map(|e| match e {
            IngestEvent::Embedding { key: 1, total, .. } => Some(*total),
            _ => None,
        })
        .unwrap();
    assert!(
        total > 2 * fonte_core::ingest::queue::HEAD,
        "a long first file: {total} chunks"
    );
    let second_starts = position(&log, |e| {
        matches!(
            e,
            IngestEvent::Embedding {
                key: 2,
                done: 0,
                ..
            }
        )
    });
    let first_stored = position(&log, |e| matches!(e, IngestEvent::Stored { key: 1, .. }));
    assert!(
        second_starts < first_stored,
        "the second file's head comes first"
    );
    let first_before = log[..second_starts]
        .iter()
        .filter(|e| matches!(e, IngestEvent::Embedding { key: 1, .. }))
        .count();
    assert_eq!(
        first_before,
        fonte_core::ingest::queue::HEAD,
        "one head of the first file, then the next"
    );
    assert!(second_by_vector_while_first_embeds.get());
    // The short file, embedded whole by the heads, is stored before the long one.
    let second_stored = position(&log, |e| matches!(e, IngestEvent::Stored { key: 2, .. }));
    assert!(
        second_stored < first_stored,
        "the short file is ready first"
    );
    assert!(matches!(outcome(&log, 1), IngestEvent::Stored { .. }));
    assert!(matches!(outcome(&log, 2), IngestEvent::Stored { .. }));
    // Every chunk of both has its vector once stored.
    let corpus = library.corpus();
    assert!((0..corpus.chunks().len() as u32).all(|c| corpus.has_vector(c)));
}

#[test]
fn after_the_first_pages_the_file_with_the_fewest_passages_left_is_finished_first() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    // Two files longer than a head, the longer one first.
    queue
        .add(&library, files(&["en/R-FAQ.pdf", "pt/abntex2.pdf"]))
        .unwrap();
    let services = Local::new("m1");
    let log = drive(&queue, &library, &services);
    let totals: Vec<usize> = [1, 2]
        .iter()
        .map(|k| {
            log.iter()
                .find_map(|e| match e {
                    IngestEvent::Embedding { key, total, .. } if key == k => Some(*total),
                    _ => None,
                })
                .unwrap()
        })
        .collect();
    assert!(
        totals[1] > fonte_core::ingest::queue::HEAD && totals[0] > totals[1],
        "{totals:?}"
    );
    let first_stored = position(&log, |e| matches!(e, IngestEvent::Stored { key: 1, .. }));
    let second_stored = position(&log, |e| matches!(e, IngestEvent::Stored { key: 2, .. }));
    assert!(
        second_stored < first_stored,
        "the shorter file is finished first"
    );
}

#[test]
fn a_platform_that_embeds_several_at_once_gets_that_many_per_call_each_vector_in_its_place() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Queue::new();
    queue
        .add(
            &library,
            files(&["pt/tutorialbeamer.pdf", "encrypted/crazyones.pdf"]),
        )
        .unwrap();
    let mut services = Local::new("m1");
    services.slice = 3;
    let log = drive(&queue, &library, &services);
    assert!(matches!(outcome(&log, 1), IngestEvent::Stored { .. }));
    assert!(matches!(outcome(&log, 2), IngestEvent::Stored { .. }));
    let calls = services.calls.borrow();
    let chunks = library.corpus().chunks().len();
    assert_eq!(calls.iter().sum::<usize>(), chunks);
    assert!(calls.iter().all(|&n| (1..=3).contains(&n)), "{calls:?}");
    // Only a file's last slice (or its head's) may be short.
    assert!(calls.iter().filter(|&&n| n < 3).count() <= 4, "{calls:?}");
    assert!(
        calls.len() < chunks,
        "{} calls for {chunks} chunks",
        calls.len()
    );
    // Each chunk is found first by its own text's vector: no vector landed on a neighbour.
    let corpus = library.corpus();
    for (i, chunk) in corpus.chunks().iter().enumerate().step_by(5) {
        let v = FakeEncoder::new("m1").embed(&chunk.chunk.text);
        let hits = corpus.search(&Search::new("", Some(&v)).mode(Mode::Dense).depth(1));
        assert_eq!(hits[0].chunk as usize, i);
    }
}

#[test]
fn the_document_a_search_asks_for_is_embedded_next_interrupting_the_current_one() {
    let (library, _) = run(Library::open(MemStore::default(), &info("m1"))).unwrap();
    let queue = Rc::new(Queue::new());
    // Two files longer than a head; by itself the queue finishes the shorter (key 2) first.
    let added = queue
        .add(&library, files(&["en/R-FAQ.pdf", "pt/abntex2.pdf"]))
        .unwrap();
    let mut services = Local::new("m1");
    // Past both heads, while the shorter one is being finished, a search finds R-FAQ.pdf.
    let heads = 2 * fonte_core::ingest::queue::HEAD;
    services.prefer_after = Some((queue.clone(), heads + 10, added[0].id.clone()));
    let log = drive(&queue, &library, &services);
    let stored = |k: u64| {
        position(
            &log,
            |e| matches!(e, IngestEvent::Stored { key, .. } if *key == k),
        )
    };
    assert!(
        stored(1) < stored(2),
        "the file asked for is finished first"
    );
    // The shorter file was interrupted (some of its rest embedded before, the rest after) and
    // nothing was embedded twice or lost.
    let rest_of_2: Vec<usize> = log
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            IngestEvent::Embedding { key: 2, done, .. }
                if *done > fonte_core::ingest::queue::HEAD =>
            {
                Some(i)
            }
            _ => None,
        })
        .collect();
    assert!(rest_of_2.first().unwrap() < &stored(1) && rest_of_2.last().unwrap() > &stored(1));
    assert_eq!(services.embedded.get(), library.corpus().chunks().len());
    assert!(matches!(outcome(&log, 2), IngestEvent::Stored { .. }));
}
