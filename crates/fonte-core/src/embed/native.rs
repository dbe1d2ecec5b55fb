//! Native [`Encoder`]: ONNX Runtime through `ort`, the shared library loaded at run time
//! (`load-dynamic`) from the PyPI onnxruntime wheel that scripts/setup.sh installs. Nothing is
//! downloaded by a build script.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ort::environment::Environment;
use ort::session::Session;
use ort::value::Tensor;

use super::{Encoder, ModelManifest};
use crate::embed::tokenize::EncodedBatch;
use crate::{Error, Result};

/// Where scripts/setup.sh puts the library, relative to the workspace root.
pub const DEFAULT_DYLIB: &str = "models/native/libonnxruntime.so.1.32.0";

static ENV: OnceLock<std::result::Result<Environment, String>> = OnceLock::new();

/// The ONNX Runtime library to load: `ORT_DYLIB_PATH` if set, else [`DEFAULT_DYLIB`] under
/// the current directory or under this workspace.
pub fn dylib_path() -> PathBuf {
    if let Some(p) = std::env::var_os("ORT_DYLIB_PATH") {
        return PathBuf::from(p);
    }
    let here = PathBuf::from(DEFAULT_DYLIB);
    if here.exists() {
        return here;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(DEFAULT_DYLIB)
}

fn environment(dylib: &Path) -> Result<&'static Environment> {
    ENV.get_or_init(|| {
        if !dylib.exists() {
            return Err(format!(
                "ONNX Runtime library not found at {}; run scripts/setup.sh or set ORT_DYLIB_PATH",
                dylib.display()
            ));
        }
        ort::init_from(dylib)
            .map_err(|e| e.to_string())?
            .with_name("fonte")
            .with_telemetry(false)
            .build()
            .map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| Error::Model(e.clone()))
}

/// An encoder graph in a native ONNX Runtime session.
pub struct OrtEncoder {
    session: Session,
    manifest: ModelManifest,
}

impl OrtEncoder {
    /// Loads `model.onnx` bytes (checked against the manifest) with `threads` intra-op threads.
    pub fn new(manifest: &ModelManifest, model_onnx: &[u8], threads: usize) -> Result<Self> {
        manifest.verify("model.onnx", model_onnx)?;
        let env = environment(&dylib_path())?;
        let session = Session::builder(env)
            .map_err(|e| Error::Model(e.to_string()))?
            .with_intra_threads(threads.max(1))
            .map_err(|e| Error::Model(e.to_string()))?
            .commit_from_memory(model_onnx)
            .map_err(|e| Error::Model(e.to_string()))?;
        Ok(Self {
            session,
            manifest: manifest.clone(),
        })
    }
}

impl Encoder for OrtEncoder {
    async fn encode(&mut self, batch: &EncodedBatch) -> Result<Vec<f32>> {
        let shape = [batch.batch as i64, batch.seq as i64];
        let mut inputs: Vec<(
            std::borrow::Cow<'_, str>,
            ort::session::SessionInputValue<'_>,
        )> = Vec::new();
        for (name, data) in batch.inputs_for(&self.manifest.inputs)? {
            let tensor =
                Tensor::from_array((shape, data)).map_err(|e| Error::Model(e.to_string()))?;
            inputs.push((name.into(), tensor.into_dyn().into()));
        }
        let outputs = self
            .session
            .run(inputs)
            .map_err(|e| Error::Model(e.to_string()))?;
        let (_, data) = outputs[self.manifest.output.as_str()]
            .try_extract_tensor::<f32>()
            .map_err(|e| Error::Model(e.to_string()))?;
        Ok(data.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::testutil::{e5_dir, e5_manifest, minilm_dir, minilm_manifest};
    use crate::embed::{cosine, Embedder};

    /// The sentences the browser test embeds too.
    const CAT: &str = "The cat sits on the mat";
    const CAT2: &str = "A cat is sitting on a mat";
    const REVENUE: &str = "Quarterly revenue grew";

    fn fixture_path() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/minilm-native-vector.json")
    }

    #[test]
    fn minilm_embeds_paraphrases_closer_than_unrelated_text() {
        let manifest = minilm_manifest();
        let model = std::fs::read(minilm_dir().join("model.onnx")).expect("run scripts/setup.sh");
        let tok = std::fs::read(minilm_dir().join("tokenizer.json")).unwrap();
        let encoder = OrtEncoder::new(&manifest, &model, 1).unwrap();
        let mut embedder = Embedder::new(manifest, &tok, encoder).unwrap();
        let v = pollster::block_on(embedder.embed_passages(&[CAT, CAT2, REVENUE])).unwrap();

        for x in &v {
            assert_eq!(x.len(), 384);
            let norm = x.iter().map(|a| a * a).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
        }
        let para = cosine(&v[0], &v[1]);
        let unrelated = cosine(&v[0], &v[2]);
        println!("native MiniLM int8: paraphrase {para:.4}, unrelated {unrelated:.4}");
        assert!(
            para > unrelated + 0.4,
            "paraphrase {para} vs unrelated {unrelated}"
        );

        // The browser test compares its vector for CAT with this committed fixture.
        let path = fixture_path();
        if std::env::var_os("FONTE_UPDATE_FIXTURES").is_some() {
            let json = serde_json::json!({ "model": "all-MiniLM-L6-v2-int8", "text": CAT, "vector": v[0] });
            std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
        }
        let fixture: serde_json::Value = serde_json::from_slice(
            &std::fs::read(&path).expect("tests/fixtures/minilm-native-vector.json"),
        )
        .unwrap();
        assert_eq!(fixture["text"], CAT);
        let stored: Vec<f32> = serde_json::from_value(fixture["vector"].clone()).unwrap();
        let agree = cosine(&stored, &v[0]);
        assert!(
            agree >= 0.9999,
            "native vector drifted from the fixture: cosine {agree}"
        );
    }

    #[test]
    fn batching_and_length_sorting_do_not_change_vectors() {
        let manifest = minilm_manifest();
        let model = std::fs::read(minilm_dir().join("model.onnx")).unwrap();
        let tok = std::fs::read(minilm_dir().join("tokenizer.json")).unwrap();
        let texts = [
            REVENUE,
            "a",
            CAT2,
            "A much longer sentence about quarterly revenue and cats on mats.",
            CAT,
        ];
        let one = OrtEncoder::new(&manifest, &model, 1).unwrap();
        let mut single = Embedder::new(manifest.clone(), &tok, one)
            .unwrap()
            .with_batch_size(1);
        let many = OrtEncoder::new(&manifest, &model, 1).unwrap();
        let mut batched = Embedder::new(manifest, &tok, many)
            .unwrap()
            .with_batch_size(16);
        let a = pollster::block_on(single.embed_passages(&texts)).unwrap();
        let b = pollster::block_on(batched.embed_passages(&texts)).unwrap();
        for (x, y) in a.iter().zip(&b) {
            assert!(cosine(x, y) > 0.9999, "{}", cosine(x, y));
        }
    }

    /// The texts the browser test embeds with the bilingual model too: (text, is a query).
    const E5_TEXTS: [(&str, bool); 4] = [
        ("Como instalo um pacote no Debian?", true),
        (
            "Para instalar um pacote, use apt-get install seguido do nome do pacote.",
            false,
        ),
        (
            "To install a package, run apt-get install followed by the package name.",
            false,
        ),
        (
            "A receita trimestral cresceu 12% em relação ao ano anterior.",
            false,
        ),
    ];

    #[test]
    fn bilingual_e5_finds_the_translation_and_matches_the_fixture() {
        // Its activations are quantized per tensor over the whole batch (DynamicQuantizeLinear),
        // so batch mates and their padding move a vector a little: 0.9991 measured.
        e5_finds_the_translation_and_matches(
            "multilingual-e5-small-enpt-int8",
            "e5-int8-native-vectors.json",
            0.998,
            // ONNX Runtime's int8 matmul kernels differ between CPUs (VNNI against AVX2's
            // saturating u8 x s8 pairs): 0.9994 to the committed fixture on an AVX2-only AMD
            // EPYC. The browser test holds its vectors to the same 0.999.
            0.999,
        );
    }

    /// The 4-bit build stays installed for the libraries and bundles built with it.
    #[test]
    fn bilingual_e5_4bit_finds_the_translation_and_matches_the_fixture() {
        e5_finds_the_translation_and_matches(
            "multilingual-e5-small-enpt",
            "e5-native-vectors.json",
            0.9999,
            0.9999,
        );
    }

    /// `batched`: the least cosine between a vector embedded alone and in a padded batch;
    /// `fixed`: the least cosine to the committed fixture's vectors.
    fn e5_finds_the_translation_and_matches(folder: &str, fixture: &str, batched: f32, fixed: f32) {
        let manifest = e5_manifest(folder);
        assert_eq!(manifest.query_prefix, "query: ");
        assert_eq!(manifest.passage_prefix, "passage: ");
        let model = std::fs::read(e5_dir(folder).join("model.onnx")).expect("run scripts/setup.sh");
        let tok = std::fs::read(e5_dir(folder).join("tokenizer.json")).unwrap();
        let encoder = OrtEncoder::new(&manifest, &model, 1).unwrap();
        let mut embedder = Embedder::new(manifest.clone(), &tok, encoder)
            .unwrap()
            .with_batch_size(1);
        let query = pollster::block_on(embedder.embed_query(E5_TEXTS[0].0)).unwrap();
        let passages: Vec<&str> = E5_TEXTS[1..].iter().map(|(t, _)| *t).collect();
        let p = pollster::block_on(embedder.embed_passages(&passages)).unwrap();
        let scores: Vec<f32> = p.iter().map(|v| cosine(&query, v)).collect();
        println!("e5 query scores (pt, en, unrelated pt): {scores:?}");
        assert!(
            scores[0] > scores[2] + 0.05 && scores[1] > scores[2] + 0.05,
            "{scores:?}"
        );

        // Padding in a batch (positions, attention mask) changes nothing.
        let encoder = OrtEncoder::new(&manifest, &model, 1).unwrap();
        let mut batched_embedder = Embedder::new(manifest.clone(), &tok, encoder)
            .unwrap()
            .with_batch_size(16);
        let b = pollster::block_on(batched_embedder.embed_passages(&passages)).unwrap();
        for (x, y) in p.iter().zip(&b) {
            assert!(cosine(x, y) >= batched, "{}", cosine(x, y));
        }

        // The browser test compares its vectors with this committed fixture.
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures")
            .join(fixture);
        let mut all = vec![query];
        all.extend(p);
        if std::env::var_os("FONTE_UPDATE_FIXTURES").is_some() {
            let items: Vec<_> = E5_TEXTS
                .iter()
                .zip(&all)
                .map(|((t, q), v)| serde_json::json!({ "text": t, "query": q, "vector": v }))
                .collect();
            let json = serde_json::json!({ "model": manifest.id, "items": items });
            std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
        }
        let fixture: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).expect("the e5 fixture")).unwrap();
        assert_eq!(fixture["model"], manifest.id.as_str());
        for (i, (text, _)) in E5_TEXTS.iter().enumerate() {
            assert_eq!(fixture["items"][i]["text"], *text);
            let stored: Vec<f32> =
                serde_json::from_value(fixture["items"][i]["vector"].clone()).unwrap();
            let agree = cosine(&stored, &all[i]);
            assert!(
                agree >= fixed,
                "{text}: drifted from the fixture, cosine {agree}"
            );
        }
    }

    #[test]
    fn a_corrupt_model_is_refused_by_checksum() {
        let manifest = minilm_manifest();
        let err = OrtEncoder::new(&manifest, b"not onnx", 1).err().unwrap();
        assert!(err.to_string().contains("does not match"), "{err}");
    }
}
