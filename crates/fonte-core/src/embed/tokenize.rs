//! A wrapper over `tokenizers` that fixes padding and truncation here, not in the file:
//! shipped tokenizer.json files often pad every input to a fixed length (the MiniLM one pads to
//! 128), which wastes compute on short chunks and silently truncates long ones.

use std::sync::OnceLock;

use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use crate::{Error, Result};

/// Token ids of a batch, padded to its longest member, as the flat row-major arrays
/// (`batch x seq`) that an ONNX BERT encoder takes.
#[derive(Debug, Clone, PartialEq)]
pub struct EncodedBatch {
    /// Number of texts.
    pub batch: usize,
    /// Tokens per text after padding.
    pub seq: usize,
    /// Token ids.
    pub input_ids: Vec<i64>,
    /// 1 for a real token, 0 for padding.
    pub attention_mask: Vec<i64>,
    /// Segment ids (all 0: single sentences).
    pub token_type_ids: Vec<i64>,
}

impl EncodedBatch {
    /// The arrays for the graph inputs `names` (a manifest's `inputs`), in that order, so every
    /// runtime feeds the graph the same way.
    pub fn inputs_for<'a>(&self, names: &'a [String]) -> Result<Vec<(&'a str, Vec<i64>)>> {
        names
            .iter()
            .map(|name| {
                let data = match name.as_str() {
                    "input_ids" => self.input_ids.clone(),
                    "attention_mask" => self.attention_mask.clone(),
                    "token_type_ids" => self.token_type_ids.clone(),
                    other => return Err(Error::Manifest(format!("unknown graph input {other}"))),
                };
                Ok((name.as_str(), data))
            })
            .collect()
    }
}

impl EncodedBatch {
    /// Each text of the batch alone, without its padding: for runtimes that run texts side
    /// by side (the page's pool of embedding workers), where padding is compute thrown away.
    pub fn rows(&self) -> Vec<EncodedBatch> {
        (0..self.batch)
            .map(|r| {
                let row = r * self.seq..(r + 1) * self.seq;
                let mask = &self.attention_mask[row.clone()];
                // Padding is at the end (the tokenizer pads on the right).
                let len = mask.iter().rposition(|&m| m != 0).map_or(1, |p| p + 1);
                let cut = |v: &[i64]| v[row.start..row.start + len].to_vec();
                EncodedBatch {
                    batch: 1,
                    seq: len,
                    input_ids: cut(&self.input_ids),
                    attention_mask: cut(&self.attention_mask),
                    token_type_ids: cut(&self.token_type_ids),
                }
            })
            .collect()
    }

    /// The graph outputs of [`rows`](Self::rows) (`seq_r x width` each) laid out as the whole
    /// batch's (`batch x seq x width`), padding positions zero (pooling leaves them out).
    pub fn join_rows(&self, outputs: &[Vec<f32>], width: usize) -> Result<Vec<f32>> {
        if outputs.len() != self.batch {
            return Err(Error::Model(format!(
                "{} outputs for {} texts",
                outputs.len(),
                self.batch
            )));
        }
        let mut all = vec![0.0; self.batch * self.seq * width];
        for (r, out) in outputs.iter().enumerate() {
            if out.len() % width != 0 || out.len() / width > self.seq {
                return Err(Error::Model(format!(
                    "an output of {} numbers for a text of at most {} tokens of {width}",
                    out.len(),
                    self.seq
                )));
            }
            let start = r * self.seq * width;
            all[start..start + out.len()].copy_from_slice(out);
        }
        Ok(all)
    }
}

/// A tokenizer with Fonte's padding (to the longest in the batch) and truncation (`max_tokens`).
#[derive(Clone)]
pub struct TextTokenizer {
    inner: Tokenizer,
    /// The same without padding or truncation, for counting tokens; made on first use, as
    /// only chunking counts (the page, which only encodes, never pays for the copy of the
    /// vocabulary: a 250,000-piece one takes a noticeable part of loading it).
    counter: OnceLock<Tokenizer>,
}

impl TextTokenizer {
    /// Loads a `tokenizer.json` from its bytes.
    pub fn from_bytes(bytes: &[u8], max_tokens: usize) -> Result<Self> {
        #[cfg(target_arch = "wasm32")]
        // rayon cannot spawn threads in a plain wasm32 page.
        tokenizers::utils::parallelism::set_parallelism(false);

        let mut inner =
            Tokenizer::from_bytes(bytes).map_err(|e| Error::Tokenizer(e.to_string()))?;
        // Keep the file's pad token and id; only the strategy is ours.
        let padding = PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            ..inner.get_padding().cloned().unwrap_or_default()
        };
        inner.with_padding(Some(padding));
        inner
            .with_truncation(Some(TruncationParams {
                max_length: max_tokens,
                ..Default::default()
            }))
            .map_err(|e| Error::Tokenizer(e.to_string()))?;
        Ok(Self {
            inner,
            counter: OnceLock::new(),
        })
    }

    fn counter(&self) -> &Tokenizer {
        self.counter.get_or_init(|| {
            let mut counter = self.inner.clone();
            counter.with_padding(None);
            // Without truncation there is nothing to check: this cannot fail.
            let _ = counter.with_truncation(None);
            counter
        })
    }

    /// Tokenizes `texts` into one padded batch.
    pub fn encode_batch(&self, texts: &[&str]) -> Result<EncodedBatch> {
        let encodings = self
            .inner
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| Error::Tokenizer(e.to_string()))?;
        let batch = encodings.len();
        let seq = encodings.first().map_or(0, |e| e.len());
        let mut out = EncodedBatch {
            batch,
            seq,
            input_ids: Vec::with_capacity(batch * seq),
            attention_mask: Vec::with_capacity(batch * seq),
            token_type_ids: Vec::with_capacity(batch * seq),
        };
        for e in &encodings {
            out.input_ids
                .extend(e.get_ids().iter().map(|&v| i64::from(v)));
            out.attention_mask
                .extend(e.get_attention_mask().iter().map(|&v| i64::from(v)));
            out.token_type_ids
                .extend(e.get_type_ids().iter().map(|&v| i64::from(v)));
        }
        Ok(out)
    }

    /// How many model tokens `text` takes, special tokens included, before truncation.
    pub fn count_tokens(&self, text: &str) -> Result<usize> {
        let e = self
            .counter()
            .encode(text, true)
            .map_err(|e| Error::Tokenizer(e.to_string()))?;
        Ok(e.len())
    }

    /// Model tokens of `text` without the special tokens: what a chunk's size is measured in.
    /// Text the tokenizer rejects counts by its words, so chunking never fails on it.
    pub fn content_tokens(&self, text: &str) -> usize {
        match self.counter().encode(text, false) {
            Ok(e) => e.len(),
            Err(_) => text.split_whitespace().count(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::testutil::minilm_dir;

    fn tokenizer(max: usize) -> TextTokenizer {
        let bytes =
            std::fs::read(minilm_dir().join("tokenizer.json")).expect("run scripts/setup.sh");
        TextTokenizer::from_bytes(&bytes, max).unwrap()
    }

    #[test]
    fn pads_to_the_longest_in_the_batch_not_to_the_files_128() {
        let t = tokenizer(256);
        let b = t
            .encode_batch(&["a cat", "the cat sits on the mat"])
            .unwrap();
        assert_eq!(b.batch, 2);
        // [CLS] the cat sits on the mat [SEP]
        assert_eq!(b.seq, 8);
        assert_eq!(b.input_ids.len(), 16);
        // "a cat" is [CLS] a cat [SEP] + 4 padding positions.
        assert_eq!(&b.attention_mask[..8], &[1, 1, 1, 1, 0, 0, 0, 0]);
        assert_eq!(b.input_ids[0], 101, "[CLS]");
    }

    #[test]
    fn graph_inputs_follow_the_manifest_order_and_reject_unknown_names() {
        let b = tokenizer(256).encode_batch(&["a cat"]).unwrap();
        let names = vec!["attention_mask".to_string(), "input_ids".to_string()];
        let inputs = b.inputs_for(&names).unwrap();
        assert_eq!(inputs[0], ("attention_mask", b.attention_mask.clone()));
        assert_eq!(inputs[1], ("input_ids", b.input_ids.clone()));
        let err = b.inputs_for(&["pixel_values".to_string()]).unwrap_err();
        assert!(
            err.to_string().contains("unknown graph input pixel_values"),
            "{err}"
        );
    }

    #[test]
    fn truncates_at_max_tokens() {
        let t = tokenizer(16);
        let long = "word ".repeat(100);
        let b = t.encode_batch(&[&long]).unwrap();
        assert_eq!(b.seq, 16);
        assert_eq!(t.count_tokens(&long).unwrap(), 102);
    }

    #[test]
    fn rows_are_each_text_alone_and_join_back_in_the_batch_layout() {
        let t = tokenizer(256);
        let texts = ["the cat sits on the mat", "a cat"];
        let b = t.encode_batch(&texts).unwrap();
        let rows = b.rows();
        for (row, text) in rows.iter().zip(texts) {
            assert_eq!(*row, t.encode_batch(&[text]).unwrap(), "{text}");
        }
        assert_eq!(rows[1].seq, 4);
        // Outputs of width 2: each row's tokens numbered, padding left zero.
        let outs: Vec<Vec<f32>> = rows
            .iter()
            .map(|r| (0..r.seq * 2).map(|i| i as f32 + 1.0).collect())
            .collect();
        let joined = b.join_rows(&outs, 2).unwrap();
        assert_eq!(joined.len(), 2 * 8 * 2);
        assert_eq!(&joined[..16], &outs[0][..]);
        assert_eq!(&joined[16..24], &outs[1][..]);
        assert!(joined[24..].iter().all(|&x| x == 0.0));
        assert!(b.join_rows(&outs[..1], 2).is_err());
        assert!(b.join_rows(&[vec![0.0; 18], vec![]], 2).is_err());
    }
}
