//! The reader: what turns a file's bytes into a document and its chunks, behind a message
//! protocol, so the browser can run it in a worker of its own. A wasm panic aborts the whole
//! module and cannot be caught, so everything file content can crash (the `pdf` crate, our text
//! layer, the chunker) runs there; the page keeps only the watchdog that restarts it
//! (the app's `platform::reader`). Natively the same [`Reader`] is called directly.
//!
//! Messages are postcard bytes; the file travels beside them (transferred, not copied into
//! the message).

use serde::{Deserialize, Serialize};

use crate::embed::tokenize::TextTokenizer;
use crate::ingest::{assemble, Prepared};
use crate::pdf::{Extraction, Limits, Report};
use crate::search::chunk::{ChunkParams, Chunker};
use crate::share::bundle::{
    read_accepting, Accepted, Bundle, BundleError, Layout, ManifestDocument,
};
use crate::{Error, Result};

/// What the reader is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// The tokenizer that chunking counts tokens with, and the memory budget (once per
    /// reader).
    Init {
        /// `tokenizer.json` of the library's model; `None` for a reader that only validates
        /// bundles (a hosted corpus is read before any model is loaded).
        #[serde(with = "serde_bytes")]
        tokenizer: Option<Vec<u8>>,
        /// The model's token limit.
        max_tokens: usize,
        /// The memory budget the worker holds each file to, MiB (enforced by the platform's
        /// allocator, not here).
        memory_mib: u32,
    },
    /// Can the file be opened at all (cross-reference table, trailer, password)? Cheap: it
    /// reads no page.
    Open {
        /// The password the user gave, if any.
        password: Option<String>,
    },
    /// Read the file's pages and chunk them.
    Read {
        /// The file name (kept in the document).
        name: String,
        /// The password the user gave, if any.
        password: Option<String>,
        /// How to chunk.
        params: ChunkParams,
    },
    /// Validate a bundle (`.fonte`) whole: untrusted bytes are parsed here, never on the page,
    /// under the worker's memory budget and time limit.
    ReadBundle {
        /// The models whose vectors the page can use (any when empty): a bundle of another
        /// is refused from its manifest.
        accept: Vec<Accepted>,
    },
    /// Validate the index of a hosted bundle: the file is the bytes fetched from offset `at`
    /// (at least its [`crate::share::bundle::Layout::index_range`]).
    ReadHosted {
        /// The bundle's header (what [`crate::share::bundle::head_len`] says).
        #[serde(with = "serde_bytes")]
        head: Vec<u8>,
        /// The bundle's length.
        total: u64,
        /// Where the fetched bytes begin in it.
        at: u64,
        /// As for [`Request::ReadBundle`].
        accept: Vec<Accepted>,
    },
    /// Check one PDF of a hosted bundle: the file is the bytes of its section.
    ReadHostedPdf {
        /// The bundle's header.
        #[serde(with = "serde_bytes")]
        head: Vec<u8>,
        /// The bundle's length.
        total: u64,
        /// Which document.
        doc: u32,
        /// The document as the (validated) manifest lists it: the PDF must be that file.
        document: Box<ManifestDocument>,
    },
}

/// What the reader answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// Started and waiting for requests.
    Ready,
    /// Answer to [`Request::Init`].
    Initialized,
    /// Answer to [`Request::Open`]: `None` when the file opens, else its rejected report.
    Opened(Option<Report>),
    /// Sent while reading: pages read of the pages to read.
    Progress {
        /// Pages read so far.
        read: u32,
        /// Pages to read.
        of: u32,
    },
    /// Answer to [`Request::Read`].
    Prepared(Box<Prepared>),
    /// Answer to [`Request::ReadBundle`] and [`Request::ReadHosted`]: the validated bundle,
    /// or why it is refused.
    Bundle(Result<Box<Bundle>, BundleError>),
    /// Answer to [`Request::ReadHostedPdf`]: the checked PDF, or why it is refused.
    Pdf(Result<Vec<u8>, BundleError>),
    /// A request the reader could not serve (no tokenizer yet, a message it cannot decode):
    /// a defect of the caller, not of the file.
    Failed(String),
}

/// Serializes a message.
pub fn encode<T: Serialize>(message: &T) -> Result<Vec<u8>> {
    postcard::to_allocvec(message).map_err(|e| Error::Index(format!("reader message: {e}")))
}

/// Reads a message.
pub fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T> {
    postcard::from_bytes(bytes).map_err(|e| Error::Index(format!("reader message: {e}")))
}

/// The reader's state: the tokenizer, once given.
#[derive(Default)]
pub struct Reader {
    tokenizer: Option<TextTokenizer>,
    limits: Limits,
}

impl Reader {
    /// A reader with the default [`Limits`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A reader that counts tokens with `tokenizer` already (natively, where the model's
    /// tokenizer is at hand and no [`Request::Init`] crosses a worker boundary).
    pub fn with_tokenizer(tokenizer: TextTokenizer) -> Self {
        Self {
            tokenizer: Some(tokenizer),
            limits: Limits::default(),
        }
    }

    /// A reader with other limits (tests).
    pub fn with_limits(limits: Limits) -> Self {
        Self {
            tokenizer: None,
            limits,
        }
    }

    /// Serves one request about `file` (empty for [`Request::Init`]); `progress` gets the
    /// [`Reply::Progress`] messages while a file is read.
    pub fn handle(
        &mut self,
        request: Request,
        file: &[u8],
        progress: &mut dyn FnMut(Reply),
    ) -> Reply {
        match request {
            Request::Init {
                tokenizer,
                max_tokens,
                ..
            } => match tokenizer.map(|t| TextTokenizer::from_bytes(&t, max_tokens)) {
                None => Reply::Initialized,
                Some(Ok(t)) => {
                    self.tokenizer = Some(t);
                    Reply::Initialized
                }
                Some(Err(e)) => Reply::Failed(e.to_string()),
            },
            Request::Open { password } => {
                let password = password.as_deref().map(str::as_bytes);
                match Extraction::open(file, password, self.limits) {
                    Ok(_) => Reply::Opened(None),
                    Err(rejected) => Reply::Opened(Some(rejected.report)),
                }
            }
            Request::Read {
                name,
                password,
                params,
            } => {
                let Some(tokenizer) = &self.tokenizer else {
                    return Reply::Failed("the reader has no tokenizer yet".into());
                };
                let count = |t: &str| tokenizer.content_tokens(t);
                let password = password.as_deref().map(str::as_bytes);
                Reply::Prepared(Box::new(read(
                    &name,
                    file,
                    password,
                    params,
                    self.limits,
                    &count,
                    progress,
                )))
            }
            Request::ReadBundle { accept } => {
                Reply::Bundle(read_accepting(file, &accept).map(Box::new))
            }
            Request::ReadHosted {
                head,
                total,
                at,
                accept,
            } => Reply::Bundle(
                Layout::parse(&head, total)
                    .and_then(|l| l.assemble(at, file, &accept))
                    .map(Box::new),
            ),
            Request::ReadHostedPdf {
                head,
                total,
                doc,
                document,
            } => Reply::Pdf(
                Layout::parse(&head, total).and_then(|l| l.open_pdf(&document, doc as usize, file)),
            ),
        }
    }
}

/// Reads and chunks a file page by page, reporting progress after each page.
fn read(
    name: &str,
    file: &[u8],
    password: Option<&[u8]>,
    params: ChunkParams,
    limits: Limits,
    count: &dyn Fn(&str) -> usize,
    progress: &mut dyn FnMut(Reply),
) -> Prepared {
    let doc = match Extraction::open(file, password, limits) {
        Err(rejected) => *rejected,
        Ok(mut x) => {
            let of = x.page_count().min(limits.max_pages);
            while x.step() {
                progress(Reply::Progress {
                    read: x.pages_read(),
                    of,
                });
            }
            x.finish()
        }
    };
    let mut chunks = Vec::new();
    if !matches!(doc.report, Report::Rejected { .. }) {
        let mut chunker = Chunker::new(params, count);
        for page in &doc.pages {
            chunks.extend(chunker.chunk_page(page.number, &page.text, &page.furniture));
        }
    }
    assemble(name, doc, chunks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokenizer() -> Vec<u8> {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../models/all-minilm-l6-v2-int8"
        );
        std::fs::read(format!("{dir}/tokenizer.json")).expect("scripts/setup.sh installs it")
    }

    #[test]
    fn messages_survive_the_round_trip() {
        let r = Request::Read {
            name: "a.pdf".into(),
            password: Some("pw".into()),
            params: ChunkParams::default(),
        };
        assert_eq!(decode::<Request>(&encode(&r).unwrap()).unwrap(), r);
        let p = Reply::Progress { read: 3, of: 9 };
        assert_eq!(decode::<Reply>(&encode(&p).unwrap()).unwrap(), p);
        assert!(decode::<Reply>(&[0xff, 0xff]).is_err());
    }

    #[test]
    fn reads_and_chunks_after_init_with_progress_per_page() {
        let pdf = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fonte-pdf/tests/fixtures/hostile/page-count-huge.pdf"
        ))
        .unwrap();
        let mut reader = Reader::new();
        let read = Request::Read {
            name: "one.pdf".into(),
            password: None,
            params: ChunkParams::default(),
        };
        assert!(matches!(
            reader.handle(read.clone(), &pdf, &mut |_| {}),
            Reply::Failed(_)
        ));
        let init = Request::Init {
            tokenizer: Some(tokenizer()),
            max_tokens: 256,
            memory_mib: 1024,
        };
        assert_eq!(reader.handle(init, &[], &mut |_| {}), Reply::Initialized);
        assert_eq!(
            reader.handle(Request::Open { password: None }, &pdf, &mut |_| {}),
            Reply::Opened(None)
        );
        let mut seen = Vec::new();
        let Reply::Prepared(p) = reader.handle(read, &pdf, &mut |r| seen.push(r)) else {
            panic!("not prepared");
        };
        assert_eq!(seen, [Reply::Progress { read: 1, of: 1 }]);
        assert_eq!(p.meta.name, "one.pdf");
        assert_eq!(p.chunks.len(), 1);
        assert_eq!(p.chunks[0].text, "Survives");
    }

    #[test]
    fn a_file_that_cannot_be_opened_says_why() {
        let mut reader = Reader::new();
        let Reply::Opened(Some(Report::Rejected { .. })) = reader.handle(
            Request::Open { password: None },
            b"%PDF-1.7 cut",
            &mut |_| {},
        ) else {
            panic!("should be rejected");
        };
    }
}
