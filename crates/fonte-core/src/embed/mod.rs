//! Embedding: the model manifest, the runtime-independent [`Embedder`] (tokenize, batch,
//! pool, normalise) and the [`Encoder`] trait each runtime implements (native ONNX Runtime
//! here in [`native`], onnxruntime-web in the app's `platform::embed`).

pub mod fake;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
#[cfg(test)]
pub(crate) mod testutil;
pub mod tokenize;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::embed::tokenize::{EncodedBatch, TextTokenizer};
use crate::{Error, Result};

/// How token vectors become one text vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pooling {
    /// Mean over the tokens the attention mask keeps.
    Mean,
}

/// One file of a model, with where it comes from and its checksum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelFile {
    /// Lower-case hex SHA-256 of the file.
    pub sha256: String,
    /// Size in bytes.
    pub bytes: u64,
    /// The pinned PyPI requirement it is installed from, if it is not produced by a conversion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pypi: Option<String>,
    /// Path inside that package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The conversion script in models/ that produces it, if it is not copied from a package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convert: Option<String>,
    /// What that script converts (package and file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The options that script is run with (which build of the weights).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

/// `models/<name>/manifest.json`: what an index built with this model must record, and how to
/// run it. An index whose model id or dim differs from the current model is never mixed with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelManifest {
    /// Manifest format version.
    pub format: u32,
    /// Stable model id recorded in every index built with it.
    pub id: String,
    /// Human description.
    #[serde(default)]
    pub description: String,
    /// ISO 639-1 codes of the languages it is good at.
    #[serde(default)]
    pub languages: Vec<String>,
    /// Output dimension.
    pub dim: usize,
    /// Pooling of token vectors.
    pub pooling: Pooling,
    /// Whether vectors are L2-normalised.
    pub normalize: bool,
    /// Longest input in model tokens; longer inputs are truncated.
    pub max_tokens: usize,
    /// Prepended to questions (e5 models want "query: ").
    #[serde(default)]
    pub query_prefix: String,
    /// Prepended to passages (e5 models want "passage: ").
    #[serde(default)]
    pub passage_prefix: String,
    /// Weight of this model's dense ranking in hybrid fusion (BM25's is 1): a stronger model
    /// deserves more (measured per model, docs/QUALITY.md §2). 1 when absent.
    #[serde(default = "one")]
    pub dense_weight: f32,
    /// How much closer (cosine) this model puts a passage in the question's language than the
    /// same passage in the other language, on average: added back to the other language's
    /// passages when a library mixes them (measured per model on parallel text, docs/QUALITY.md
    /// §4). 0 when absent (a model of one language).
    #[serde(default)]
    pub language_gap: f32,
    /// The axis along which this model's vectors tell its languages apart: the difference of
    /// the mean passage vectors of English and Portuguese text, unit length, measured on a
    /// translated manual (docs/QUALITY.md §4). Empty when absent (a model of one language).
    #[serde(default)]
    pub language_direction: Vec<f32>,
    /// Graph input names, in the order the graph lists them.
    pub inputs: Vec<String>,
    /// Graph output holding the token vectors `[batch, seq, dim]`.
    pub output: String,
    /// The model's files by name (`model.onnx`, `tokenizer.json`).
    pub files: BTreeMap<String, ModelFile>,
}

fn one() -> f32 {
    1.0
}

impl ModelManifest {
    /// Parses a manifest and checks the fields Fonte relies on.
    pub fn from_json(bytes: &[u8]) -> Result<Self> {
        let m: ModelManifest = serde_json::from_slice(bytes)?;
        if m.format != 1 {
            return Err(Error::Manifest(format!(
                "unknown manifest format {}",
                m.format
            )));
        }
        if m.dim == 0 || m.max_tokens < 8 {
            return Err(Error::Manifest(format!(
                "{}: implausible dim or max_tokens",
                m.id
            )));
        }
        for name in ["model.onnx", "tokenizer.json"] {
            if !m.files.contains_key(name) {
                return Err(Error::Manifest(format!("{}: no {name} listed", m.id)));
            }
        }
        Ok(m)
    }

    /// Checks `bytes` against the manifest's checksum for file `name`, so a truncated or altered
    /// download is reported instead of producing wrong vectors.
    pub fn verify(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let spec = self
            .files
            .get(name)
            .ok_or_else(|| Error::Manifest(format!("{}: no {name} listed", self.id)))?;
        let got = hex::encode(Sha256::digest(bytes));
        if got != spec.sha256 {
            return Err(Error::Manifest(format!(
                "{}/{name}: sha256 {got} does not match the manifest's {} ({} of {} bytes)",
                self.id,
                spec.sha256,
                bytes.len(),
                spec.bytes
            )));
        }
        Ok(())
    }
}

/// A runtime that runs the encoder graph on one tokenized batch and returns the output
/// `[batch, seq, dim]` flattened row-major.
///
/// Browser futures are not `Send`, so neither is this trait's.
#[allow(async_fn_in_trait)]
pub trait Encoder {
    /// Runs the graph on `batch`.
    async fn encode(&mut self, batch: &EncodedBatch) -> Result<Vec<f32>>;
}

/// Texts in, unit vectors out: tokenizes, batches texts of similar length together (padding
/// is compute thrown away), runs the [`Encoder`], pools and normalises.
pub struct Embedder<E> {
    manifest: ModelManifest,
    tokenizer: TextTokenizer,
    encoder: E,
    batch_size: usize,
}

impl<E: Encoder> Embedder<E> {
    /// Builds an embedder from the manifest, the verified `tokenizer.json` bytes and a runtime.
    pub fn new(manifest: ModelManifest, tokenizer_json: &[u8], encoder: E) -> Result<Self> {
        manifest.verify("tokenizer.json", tokenizer_json)?;
        let tokenizer = TextTokenizer::from_bytes(tokenizer_json, manifest.max_tokens)?;
        Ok(Self {
            manifest,
            tokenizer,
            encoder,
            batch_size: 16,
        })
    }

    /// Sets how many texts go through the graph at once.
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = batch_size.max(1);
        self
    }

    /// The model this embedder runs.
    pub fn manifest(&self) -> &ModelManifest {
        &self.manifest
    }

    /// The runtime that runs the graph.
    pub fn encoder(&self) -> &E {
        &self.encoder
    }

    /// The runtime, to manage what it holds (the page frees idle workers).
    pub fn encoder_mut(&mut self) -> &mut E {
        &mut self.encoder
    }

    /// The tokenizer, for counting tokens when chunking.
    pub fn tokenizer(&self) -> &TextTokenizer {
        &self.tokenizer
    }

    /// Embeds passages (chunks) with the model's passage prefix; vectors in input order.
    pub async fn embed_passages(&mut self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let prefix = self.manifest.passage_prefix.clone();
        self.embed_with_prefix(&prefix, texts).await
    }

    /// Embeds a question with the model's query prefix.
    pub async fn embed_query(&mut self, text: &str) -> Result<Vec<f32>> {
        let prefix = self.manifest.query_prefix.clone();
        let mut v = self.embed_with_prefix(&prefix, &[text]).await?;
        Ok(v.remove(0))
    }

    async fn embed_with_prefix(&mut self, prefix: &str, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let prefixed: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
        // Sort by length so each batch pads to a similar length; restore order at the end.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| prefixed[i].len());
        let mut out = vec![Vec::new(); texts.len()];
        for group in order.chunks(self.batch_size) {
            let batch_texts: Vec<&str> = group.iter().map(|&i| prefixed[i].as_str()).collect();
            let batch = self.tokenizer.encode_batch(&batch_texts)?;
            let hidden = self.encoder.encode(&batch).await?;
            let dim = self.manifest.dim;
            if hidden.len() != batch.batch * batch.seq * dim {
                return Err(Error::Model(format!(
                    "{}: output has {} values, expected {} x {} x {dim}",
                    self.manifest.id,
                    hidden.len(),
                    batch.batch,
                    batch.seq
                )));
            }
            let mut pooled = mean_pool(&hidden, &batch.attention_mask, batch.batch, batch.seq, dim);
            if self.manifest.normalize {
                pooled.iter_mut().for_each(|v| l2_normalize(v));
            }
            for (&i, v) in group.iter().zip(pooled) {
                out[i] = v;
            }
        }
        Ok(out)
    }
}

/// Mean of token vectors over the positions where `mask` is 1; `hidden` is `[batch, seq, dim]`.
pub fn mean_pool(
    hidden: &[f32],
    mask: &[i64],
    batch: usize,
    seq: usize,
    dim: usize,
) -> Vec<Vec<f32>> {
    (0..batch)
        .map(|b| {
            let mut sum = vec![0f32; dim];
            let mut count = 0f32;
            for s in 0..seq {
                if mask[b * seq + s] == 0 {
                    continue;
                }
                count += 1.0;
                let row = &hidden[(b * seq + s) * dim..(b * seq + s + 1) * dim];
                sum.iter_mut().zip(row).for_each(|(acc, x)| *acc += x);
            }
            // An all-padding row cannot come from the tokenizer ([CLS] is always there), but a
            // zero vector is a safer answer than a division by zero.
            let count = count.max(1.0);
            sum.iter_mut().for_each(|x| *x /= count);
            sum
        })
        .collect()
}

/// [`mean_pool`] followed by [`l2_normalize`].
pub fn mean_pool_l2(
    hidden: &[f32],
    mask: &[i64],
    batch: usize,
    seq: usize,
    dim: usize,
) -> Vec<Vec<f32>> {
    let mut v = mean_pool(hidden, mask, batch, seq, dim);
    v.iter_mut().for_each(|x| l2_normalize(x));
    v
}

/// Scales `v` to unit length (a zero vector stays zero).
pub fn l2_normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

/// Cosine similarity.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_pool_ignores_masked_tokens() {
        // batch 2, seq 2, dim 2
        let hidden = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 70.0, 80.0];
        let pooled = mean_pool(&hidden, &[1, 1, 1, 0], 2, 2, 2);
        assert_eq!(pooled, vec![vec![2.0, 3.0], vec![5.0, 6.0]]);
    }

    #[test]
    fn l2_gives_unit_norm_and_keeps_zero() {
        let mut v = vec![3.0, 4.0];
        l2_normalize(&mut v);
        assert_eq!(v, vec![0.6, 0.8]);
        let mut z = vec![0.0, 0.0];
        l2_normalize(&mut z);
        assert_eq!(z, vec![0.0, 0.0]);
    }

    #[test]
    fn manifest_rejects_a_wrong_checksum() {
        let m = testutil::minilm_manifest();
        let err = m
            .verify("tokenizer.json", b"not the tokenizer")
            .unwrap_err();
        assert!(err.to_string().contains("does not match"), "{err}");
    }

    #[test]
    fn the_bilingual_builds_rank_with_their_language_axis_and_minilm_without() {
        use crate::search::retrieve::{Fusion, Languages};
        use testutil::{e5_manifest, minilm_manifest};
        for folder in [
            "multilingual-e5-small-enpt-int8",
            "multilingual-e5-small-enpt",
        ] {
            let m = e5_manifest(folder);
            assert_eq!(m.language_direction.len(), m.dim, "{folder}");
            let norm = m
                .language_direction
                .iter()
                .map(|x| x * x)
                .sum::<f32>()
                .sqrt();
            assert!((norm - 1.0).abs() < 1e-3, "{folder}: norm {norm}");
            assert_eq!(Fusion::for_model(&m).languages, Languages::Hubness);
        }
        assert_eq!(
            Fusion::for_model(&minilm_manifest()).languages,
            Languages::Joint
        );
    }
}
