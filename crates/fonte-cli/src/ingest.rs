//! PDFs into a library natively, through the same ingestion queue the page uses
//! (`fonte_core::ingest::queue`): the same duplicate check, rejections, reading, chunking and embedding,
//! with the reader run in-process (the worker's protocol, without the worker) and the native
//! model. `fonte index` writes the library's corpus, `fonte bundle` exports it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use fonte_core::embed::native::OrtEncoder;
use fonte_core::embed::{Embedder, ModelManifest};
use fonte_core::ingest::queue::{File, IngestEvent, Services};
use fonte_core::ingest::reader::{Reader, Reply, Request};
use fonte_core::ingest::Prepared;
use fonte_core::pdf::Report;
use fonte_core::search::chunk::ChunkParams;
use fonte_core::search::corpus::BuildInfo;
use fonte_core::session::{self, Session};
use fonte_core::store::MemStore;
use fonte_core::Error;
use indicatif::{ProgressBar, ProgressStyle};

/// Chunks per embedding call: natively the model batches by length, so a large slice is
/// faster (the page embeds one at a time to stay responsive).
const SLICE: usize = 256;

/// PDFs under `inputs` (folders searched recursively; `.pdf` in any letter case), sorted.
pub fn collect_pdfs(inputs: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            if let Ok(entries) = std::fs::read_dir(p) {
                for e in entries.flatten() {
                    walk(&e.path(), out);
                }
            }
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")) {
            out.push(p.to_path_buf());
        }
    }
    let mut out = Vec::new();
    for i in inputs {
        walk(i, &mut out);
    }
    out.sort();
    out
}

/// A session's services natively.
pub struct Native {
    manifest: ModelManifest,
    reader: RefCell<Reader>,
    embedder: RefCell<Embedder<OrtEncoder>>,
}

impl Native {
    /// The reader with `embedder`'s tokenizer, and `embedder`.
    pub fn new(embedder: Embedder<OrtEncoder>) -> Self {
        Self {
            manifest: embedder.manifest().clone(),
            reader: RefCell::new(Reader::with_tokenizer(embedder.tokenizer().clone())),
            embedder: RefCell::new(embedder),
        }
    }
}

impl session::Services for Native {
    fn model(&self) -> &ModelManifest {
        &self.manifest
    }

    async fn embed_query(&self, text: &str) -> Result<Vec<f32>, Error> {
        pollster::block_on(self.embedder.borrow_mut().embed_query(text))
    }
}

impl Services for Native {
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
            other => Err(Error::Index(format!("the reader answered {other:?}"))),
        }
    }

    async fn read(
        &self,
        name: &str,
        bytes: &[u8],
        password: Option<&str>,
        params: ChunkParams,
    ) -> Result<Result<Prepared, Report>, Error> {
        let request = Request::Read {
            name: name.to_string(),
            password: password.map(String::from),
            params,
        };
        match self.reader.borrow_mut().handle(request, bytes, &mut |_| {}) {
            Reply::Prepared(p) => Ok(Ok(*p)),
            other => Err(Error::Index(format!("the reader answered {other:?}"))),
        }
    }

    async fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, Error> {
        // The model runs synchronously here: blocking holds no borrow across the queue's awaits.
        pollster::block_on(self.embedder.borrow_mut().embed_passages(texts))
    }

    fn slice(&self) -> usize {
        SLICE
    }
}

/// Reads, chunks and embeds the PDFs under `inputs` into a session over a library in memory,
/// with `embedder`, reporting each file on stderr (stored with its report, rejected with its
/// reason, skipped as a duplicate).
pub fn ingest(
    inputs: &[PathBuf],
    params: ChunkParams,
    embedder: Embedder<OrtEncoder>,
) -> Result<Session<MemStore, Native>, String> {
    let paths = collect_pdfs(inputs);
    if paths.is_empty() {
        return Err("no PDF files found".into());
    }
    let info = BuildInfo {
        model_id: embedder.manifest().id.clone(),
        dim: embedder.manifest().dim,
        chunk_params: params,
    };
    let (session, _) = pollster::block_on(Session::open(
        MemStore::default(),
        &info,
        Native::new(embedder),
    ))
    .map_err(|e| e.to_string())?;
    let mut names = HashMap::new();
    let mut files = Vec::new();
    for (key, path) in paths.iter().enumerate() {
        let key = key as u64;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        match std::fs::read(path) {
            Ok(bytes) => files.push(File {
                key,
                name: name.clone(),
                bytes,
            }),
            Err(e) => eprintln!("{name}: rejected: cannot read ({e})"),
        }
        names.insert(key, name);
    }
    for added in session.add(files).map_err(|e| e.to_string())? {
        if added.duplicate_of.is_some() {
            eprintln!(
                "{}: duplicate of a file already indexed, skipped",
                names[&added.key]
            );
        }
    }
    let failed = RefCell::new(None);
    let read = RefCell::new(HashMap::new());
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("embedding {bar:40} {pos}/{len} chunks, {per_sec}, eta {eta}")
            .expect("valid template"),
    );
    let on = |event: IngestEvent<Error>| match event {
        IngestEvent::Read {
            key, pages, chunks, ..
        } => {
            bar.inc_length(chunks as u64);
            read.borrow_mut().insert(key, (pages, chunks));
        }
        IngestEvent::Embedding { embedded, .. } => bar.inc(embedded as u64),
        IngestEvent::Stored { key, report } => {
            let (pages, chunks) = read.borrow().get(&key).copied().unwrap_or_default();
            bar.suspend(|| {
                eprintln!(
                    "{}: {}, {pages} pages, {chunks} chunks",
                    names[&key],
                    crate::words::report(&report)
                )
            });
        }
        IngestEvent::Rejected { key, report, .. } => {
            bar.suspend(|| eprintln!("{}: {}", names[&key], crate::words::report(&report)))
        }
        IngestEvent::Failed { key, error } => {
            bar.suspend(|| eprintln!("{}: failed: {error}", names[&key]));
            failed.borrow_mut().get_or_insert(error.to_string());
        }
        IngestEvent::Warning { error } => bar.suspend(|| eprintln!("warning: {error}")),
        _ => {}
    };
    pollster::block_on(session.ingest(&on));
    bar.finish_and_clear();
    if let Some(e) = failed.into_inner() {
        return Err(e);
    }
    Ok(session)
}
