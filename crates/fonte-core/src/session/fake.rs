//! In-process [`Services`] for tests of anything that drives a [`super::Session`] (the core's
//! own, the page's rows natively): PDFs read here with words standing in for model tokens (the
//! chunker is tested with the real tokenizer elsewhere; a session does not depend on it), and
//! the [`FakeEncoder`] for vectors. Counts the queries it embeds, so a test can tell whether a
//! search or an abstention asked for one.

use std::cell::Cell;

use super::Services;
use crate::embed::fake::FakeEncoder;
use crate::embed::ModelManifest;
use crate::ingest::queue;
use crate::ingest::{prepare, Prepared};
use crate::pdf::{Extraction, Limits, Report};
use crate::search::chunk::ChunkParams;
use crate::search::corpus::BuildInfo;
use crate::Error;

/// A model of the fake encoder's dimension, named `id`.
pub fn manifest(id: &str) -> ModelManifest {
    let file = serde_json::json!({ "sha256": "", "bytes": 0 });
    let json = serde_json::json!({
        "format": 1, "id": id, "dim": FakeEncoder::DIM, "pooling": "mean", "normalize": true,
        "max_tokens": 256, "inputs": [], "output": "",
        "files": { "model.onnx": file, "tokenizer.json": file },
    });
    ModelManifest::from_json(json.to_string().as_bytes()).expect("a valid manifest")
}

/// What a library of the fake model `id` records.
pub fn info(id: &str) -> BuildInfo {
    BuildInfo {
        model_id: id.into(),
        dim: FakeEncoder::DIM,
        chunk_params: ChunkParams::default(),
    }
}

/// Reading in this process and the fake encoder of one model.
pub struct Local {
    model: ModelManifest,
    queries: Cell<usize>,
}

impl Local {
    /// The services of the fake model `id`.
    pub fn new(id: &str) -> Self {
        Self {
            model: manifest(id),
            queries: Cell::new(0),
        }
    }

    /// Query vectors asked for so far.
    pub fn queries(&self) -> usize {
        self.queries.get()
    }
}

impl queue::Services for Local {
    type Error = Error;

    async fn open(&self, _: &str, bytes: &[u8], pw: Option<&str>) -> Result<Option<Report>, Error> {
        let opened = Extraction::open(bytes, pw.map(str::as_bytes), Limits::default());
        Ok(opened.err().map(|rejected| rejected.report))
    }

    async fn read(
        &self,
        name: &str,
        bytes: &[u8],
        password: Option<&str>,
        params: ChunkParams,
    ) -> Result<Result<Prepared, Report>, Error> {
        let count = |s: &str| s.split_whitespace().count();
        let password = password.map(str::as_bytes);
        Ok(Ok(prepare(name, bytes, password, params, &count)))
    }

    async fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, Error> {
        let mut encoder = FakeEncoder::new(&self.model.id);
        Ok(texts.iter().map(|t| encoder.embed(t)).collect())
    }
}

impl Services for Local {
    fn model(&self) -> &ModelManifest {
        &self.model
    }

    async fn embed_query(&self, text: &str) -> Result<Vec<f32>, Error> {
        self.queries.set(self.queries.get() + 1);
        Ok(FakeEncoder::new(&self.model.id).embed(text))
    }
}
