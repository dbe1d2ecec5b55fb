//! What the asking tests share: a small library, the fake encoder, the scripted endpoint.

use super::*;
use crate::answer::llm::{Api, Endpoint};
use crate::embed::fake::FakeEncoder;
use crate::pdf::Report;
use crate::search::chunk::Chunk;
use crate::search::corpus::Corpus;
use crate::search::corpus::{BuildInfo, ChunkRecord, DocumentMeta};

pub(super) const TEXTS: [&str; 4] = [
    "Boats float on water. They are built from wood or steel.",
    "Bicycles have two wheels. Riders pedal them.",
    "Contracts end when both parties sign a termination.",
    // A passage in Portuguese: the library holds both languages, so a question that passes
    // abstention is translated.
    "As bicicletas não têm motor e são movidas pelos pedais.",
];

pub(super) fn corpus() -> Corpus {
    let info = BuildInfo {
        model_id: "m".into(),
        dim: FakeEncoder::DIM,
        chunk_params: Default::default(),
    };
    let doc = DocumentMeta {
        build: None,
        about: Default::default(),
        id: "d1".into(),
        name: "things.pdf".into(),
        title: None,
        pages: 4,
        report: Report::Complete,
    };
    let mut enc = FakeEncoder::new("m");
    let chunks = TEXTS
        .iter()
        .enumerate()
        .map(|(i, t)| ChunkRecord {
            doc: 0,
            chunk: Chunk {
                page: i as u32 + 1,
                char_start: 10,
                char_end: 10 + t.chars().count(),
                heading_path: Vec::new(),
                text: (*t).into(),
            },
        })
        .collect();
    let vectors = TEXTS.iter().map(|t| enc.embed(t)).collect();
    Corpus::build(info, vec![doc], chunks, vectors).unwrap()
}

pub(super) fn vector(q: &str) -> Vec<f32> {
    FakeEncoder::new("m").embed(q)
}

pub(super) fn endpoint() -> Endpoint {
    Endpoint {
        api: Api::OpenAi,
        base_url: "http://127.0.0.1:1/v1".into(),
        model: "tiny".into(),
        api_key: None,
        temperature: 0.0,
        max_tokens: 100,
    }
}

pub(super) fn openai(text: &str) -> String {
    let delta = serde_json::json!({ "choices": [{ "delta": { "content": text } }] });
    format!("data: {delta}\n\ndata: [DONE]\n\n")
}

pub(super) fn run<T>(f: impl std::future::Future<Output = T>) -> T {
    pollster::block_on(f)
}

/// The corpus with a fixed threshold and the fake encoder: what the page's engine and the CLI
/// give the pipeline.
pub(super) struct Library {
    pub(super) corpus: Corpus,
    pub(super) threshold: Option<Threshold>,
    /// The query model is still loading (see [`AskServices::query_ready`]).
    pub(super) loading: bool,
}

impl AskServices for Library {
    type Error = crate::Error;
    async fn embed_query(&self, text: &str) -> crate::Result<Vec<f32>> {
        Ok(vector(text))
    }
    async fn threshold(&self) -> crate::Result<Option<Threshold>> {
        Ok(self.threshold)
    }
    fn with_corpus<R>(&self, f: impl FnOnce(&Corpus) -> R) -> R {
        f(&self.corpus)
    }
    fn query_ready(&self) -> bool {
        !self.loading
    }
}

pub(super) const HIGH: Threshold = Threshold {
    top: 2.0,
    probes: 1,
};
pub(super) const LOW: Threshold = Threshold {
    top: -2.0,
    probes: 1,
};

pub(super) fn library(threshold: Option<Threshold>) -> Library {
    Library {
        corpus: corpus(),
        threshold,
        loading: false,
    }
}

pub(super) fn request(question: &str) -> Request<'_> {
    Request {
        question,
        turns: &[],
        params: AskParams::default(),
        translate: TranslateWith::Endpoint,
    }
}

/// What the events said, one word each.
pub(super) fn event_name(e: &AskEvent<'_>) -> String {
    match e {
        AskEvent::Translating(l) => format!("translating {l:?}"),
        AskEvent::Translated(t) => format!("translated {:?}", t.lang),
        AskEvent::TranslationSkipped(l, _) => format!("skipped {l:?}"),
        AskEvent::Retrieving => "retrieving".into(),
        AskEvent::WordMatches(s) => format!("words {}", s.len()),
        AskEvent::Sources(s) => format!("sources {}", s.len()),
        AskEvent::Reading { processed, total } => format!("reading {processed}/{total}"),
        AskEvent::Text(_) => "text".into(),
    }
}
