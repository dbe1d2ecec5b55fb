//! Entry points for `scripts/bench_browser.mjs` (not used by the app itself): the benchmark
//! drives the release build in headless Chromium through `window.wasmBindings`.
//!
//! Each function measures one thing with the app's own code paths; the script prints the
//! figures next to native ones from `fonte` run on the same chunks.

use fonte_core::embed::{Embedder, ModelManifest};
use fonte_core::pdf::Report;
use fonte_core::search::chunk::{Chunk, ChunkParams};
use fonte_core::search::corpus::{BuildInfo, Corpus, DocumentMeta};
use fonte_core::search::retrieve::{Mode, Search};
use fonte_core::search::vector::random_unit_vectors;
use fonte_core::store::{LibraryMeta, Store, StoredDocument, STORE_FORMAT};
use wasm_bindgen::prelude::*;

use crate::engine::ORT_DIR;
use crate::platform::assets::absolute;

/// The model whose tokenizer makes the benchmark's chunks and whose size the synthetic
/// libraries have (the same texts are then embedded with each model).
const MODEL_DIR: &str = "models/all-minilm-l6-v2-int8/";
use crate::platform::assets::fetch_bytes;
use crate::platform::embed::{choose_compute, requested_compute, OrtWebEncoder};
use crate::platform::idb::IdbStore;
use crate::platform::reader::ReaderWorker;

fn js(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

async fn manifest_in(dir: &str) -> Result<ModelManifest, JsValue> {
    let bytes = fetch_bytes(&format!("{dir}manifest.json"))
        .await
        .map_err(js)?;
    ModelManifest::from_json(&bytes).map_err(js)
}

async fn manifest() -> Result<ModelManifest, JsValue> {
    manifest_in(MODEL_DIR).await
}

/// The chunk texts of a PDF at the default chunk size, as the app would index them.
#[wasm_bindgen(js_name = benchChunks)]
pub async fn bench_chunks(pdf: Vec<u8>) -> Result<Vec<String>, JsValue> {
    let m = manifest().await?;
    let json = fetch_bytes(&format!("{MODEL_DIR}tokenizer.json"))
        .await
        .map_err(js)?;
    // Read in the reader worker like every PDF the app sees: the page never runs the parser
    // (and the app's wasm does not link it).
    let reader = ReaderWorker::new(json, m.max_tokens);
    let read = reader
        .read(
            "bench.pdf",
            &pdf,
            None,
            ChunkParams::default(),
            &mut |_, _| {},
        )
        .await
        .map_err(js)?;
    match read {
        Ok(p) => Ok(p.chunks.into_iter().map(|c| c.text).collect()),
        Err(stopped) => Err(JsValue::from_str(&format!(
            "the reader stopped: {stopped:?}"
        ))),
    }
}

/// Milliseconds to embed `texts` with the model in `model_dir` through the page's pool of
/// `workers` embedding workers, `per_call` texts at a time (by default as the ingestion queue
/// hands them: [`TEXTS_PER_WORKER`] per worker) (every worker started and one warm-up round
/// not counted).
#[wasm_bindgen(js_name = benchPool)]
pub async fn bench_pool(
    texts: Vec<String>,
    workers: usize,
    model_dir: String,
    per_call: Option<usize>,
) -> Result<f64, JsValue> {
    use crate::platform::embed_pool::{PageEncoder, PoolEncoder, TEXTS_PER_WORKER};
    let per_call = per_call.unwrap_or(workers * TEXTS_PER_WORKER).max(1);
    let m = manifest_in(&model_dir).await?;
    let url = format!("{model_dir}model.onnx");
    let tokenizer = fetch_bytes(&format!("{model_dir}tokenizer.json"))
        .await
        .map_err(js)?;
    let pool = PoolEncoder::load(&absolute(ORT_DIR), &m, &url, workers)
        .await
        .map_err(js)?;
    let mut embedder = Embedder::new(m, &tokenizer, PageEncoder::Pool(pool))
        .map_err(js)?
        .with_batch_size(per_call);
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    embedder
        .embed_passages(&refs[..refs.len().min(workers * 2)])
        .await
        .map_err(js)?;
    let t = now();
    for slice in refs.chunks(per_call) {
        embedder.embed_passages(slice).await.map_err(js)?;
    }
    Ok(now() - t)
}

/// Milliseconds to embed `texts` with the model in `model_dir` (e.g. `models/all-minilm-l6-v2-int8/`)
/// in onnxruntime-web, `batch` texts per run (model loading and one warm-up run not counted).
#[wasm_bindgen(js_name = benchEmbed)]
pub async fn bench_embed(
    texts: Vec<String>,
    batch: usize,
    model_dir: String,
) -> Result<f64, JsValue> {
    let m = manifest_in(&model_dir).await?;
    let model = fetch_bytes(&format!("{model_dir}model.onnx"))
        .await
        .map_err(js)?;
    let tokenizer = fetch_bytes(&format!("{model_dir}tokenizer.json"))
        .await
        .map_err(js)?;
    // `?compute=webgpu` in the page address measures WebGPU where the browser has it.
    let compute = choose_compute(requested_compute()).await;
    let encoder = OrtWebEncoder::load(&absolute(ORT_DIR), &m, &model, compute)
        .await
        .map_err(js)?;
    let mut embedder = Embedder::new(m, &tokenizer, encoder)
        .map_err(js)?
        .with_batch_size(batch);
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    embedder
        .embed_passages(&refs[..refs.len().min(4)])
        .await
        .map_err(js)?;
    let t = now();
    embedder.embed_passages(&refs).await.map_err(js)?;
    Ok(now() - t)
}

/// A synthetic library of `n` chunks (texts cycled from `texts`, seeded random vectors),
/// 500 chunks per document.
fn synthetic(n: usize, texts: &[String], info: &BuildInfo) -> Vec<StoredDocument> {
    let vectors = random_unit_vectors(n, info.dim, 7);
    let mut docs = Vec::new();
    for (d, part) in vectors.chunks(500).enumerate() {
        let chunks: Vec<Chunk> = (0..part.len())
            .map(|i| {
                let text = texts[(d * 500 + i) % texts.len()].clone();
                Chunk {
                    page: 1 + i as u32 / 5,
                    char_start: 0,
                    char_end: text.chars().count(),
                    heading_path: Vec::new(),
                    text,
                }
            })
            .collect();
        docs.push(StoredDocument {
            meta: DocumentMeta {
                build: None,
                about: Default::default(),
                id: format!("{:064x}", d + 1).into(),
                name: format!("synthetic-{d}.pdf"),
                title: None,
                pages: 100,
                report: Report::Complete,
            },
            pdf: Vec::new(),
            chunks,
            vectors: part.to_vec(),
            pages: Vec::new(),
        });
    }
    docs
}

async fn info() -> Result<BuildInfo, JsValue> {
    let m = manifest().await?;
    Ok(BuildInfo {
        model_id: m.id,
        dim: m.dim,
        chunk_params: ChunkParams::default(),
    })
}

/// Replaces the app's library with a synthetic one of `n` chunks, saved index included, as
/// if it had been ingested; the script then reloads the page and times the library's return.
#[wasm_bindgen(js_name = benchSeed)]
pub async fn bench_seed(n: usize, texts: Vec<String>) -> Result<(), JsValue> {
    let info = info().await?;
    let store = IdbStore::open("fonte").await.map_err(js)?;
    store.clear().await.map_err(js)?;
    store
        .set_meta(&LibraryMeta {
            format: STORE_FORMAT,
            info: info.clone(),
            next: None,
            from_bundles: Default::default(),
        })
        .await
        .map_err(js)?;
    let mut corpus = Corpus::empty(info.clone());
    for doc in synthetic(n, &texts, &info) {
        store.put_document(&doc).await.map_err(js)?;
        corpus
            .add_document(doc.meta, doc.chunks, doc.vectors)
            .map_err(js)?;
    }
    store
        .set_index(&corpus.to_bytes().map_err(js)?)
        .await
        .map_err(js)?;
    store.close();
    Ok(())
}

/// Hybrid search latency over a synthetic corpus of `n` chunks: JSON with the build time and
/// p50/p95 over `queries` queries (query words from the texts, seeded random query vectors;
/// embedding the query is measured separately by `benchEmbed`).
#[wasm_bindgen(js_name = benchSearch)]
pub async fn bench_search(n: usize, queries: usize, texts: Vec<String>) -> Result<String, JsValue> {
    let info = info().await?;
    let t = now();
    let mut corpus = Corpus::empty(info.clone());
    for doc in synthetic(n, &texts, &info) {
        corpus
            .add_document(doc.meta, doc.chunks, doc.vectors)
            .map_err(js)?;
    }
    let build_ms = now() - t;
    let qv = random_unit_vectors(queries, info.dim, 11);
    let qs: Vec<String> = (0..queries)
        .map(|i| {
            let words: Vec<&str> = texts[(i * 7919) % texts.len()]
                .split_whitespace()
                .take(6)
                .collect();
            words.join(" ")
        })
        .collect();
    let mut out = serde_json::json!({ "chunks": n, "build_ms": build_ms });
    for (name, mode) in [
        ("hybrid", Mode::Hybrid),
        ("lexical", Mode::Lexical),
        ("dense", Mode::Dense),
    ] {
        let mut times = Vec::with_capacity(queries);
        for (q, v) in qs.iter().zip(&qv) {
            let t = now();
            let hits = corpus.search(&Search::new(q, Some(v)).mode(mode));
            times.push(now() - t);
            std::hint::black_box(hits);
        }
        times.sort_by(f64::total_cmp);
        let pick = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize];
        out[format!("{name}_p50_ms")] = pick(0.5).into();
        out[format!("{name}_p95_ms")] = pick(0.95).into();
    }
    Ok(out.to_string())
}

/// Keeping each passage's nearest neighbours (what the bilingual model's ranking needs,
/// `fonte_core::search::retrieve::Neighbours`) over `n` synthetic vectors of the bilingual model's
/// dimension: JSON with the time to compute them from scratch in the app's slices (what
/// opening a saved index without them costs, once, in the background) and the longest slice,
/// and the mean time to add one more vector (what each embedded chunk costs), over `added`.
#[wasm_bindgen(js_name = benchNeighbours)]
pub fn bench_neighbours(n: usize, added: usize) -> String {
    use fonte_core::search::retrieve::{Neighbours, HUBNESS_NEIGHBOURS};
    let dim = 384;
    let vectors = random_unit_vectors(n + added, dim, 17);
    let axis = random_unit_vectors(1, dim, 18).remove(0);
    let mut neighbours = Neighbours::new(n, &axis, HUBNESS_NEIGHBOURS);
    let (mut total_ms, mut slice_ms, mut slices) = (0.0, 0f64, 0);
    loop {
        let t = now();
        let done = neighbours.build(&vectors[..n], crate::engine::SLICE_PAIRS);
        let ms = now() - t;
        total_ms += ms;
        slice_ms = slice_ms.max(ms);
        slices += 1;
        if done {
            break;
        }
    }
    let t = now();
    for i in n..n + added {
        neighbours.add(&vectors[..=i], i);
    }
    let add_ms = (now() - t) / added.max(1) as f64;
    std::hint::black_box(neighbours.hubness());
    serde_json::json!({
        "chunks": n, "compute_ms": total_ms, "slices": slices, "slice_ms": slice_ms, "add_ms": add_ms,
    })
    .to_string()
}
