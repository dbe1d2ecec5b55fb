//! A deterministic stand-in for a model, for tests that need vectors but not meaning: each
//! token (or word) gets a fixed pseudo-random direction derived from the model id, so the same
//! text always embeds the same way, texts sharing words are near, and two "models" disagree
//! (vectors of one must never be mixed with the other's).

use super::{l2_normalize, Encoder};
use crate::embed::tokenize::EncodedBatch;
use crate::Result;

/// A fake [`Encoder`] of dimension [`FakeEncoder::DIM`].
#[derive(Debug, Clone)]
pub struct FakeEncoder {
    seed: u64,
}

impl FakeEncoder {
    /// The vectors' dimension.
    pub const DIM: usize = 16;

    /// A fake model called `model_id`.
    pub fn new(model_id: &str) -> Self {
        // FNV-1a of the id: stable across runs and platforms.
        let seed = model_id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        });
        Self { seed }
    }

    fn direction(&self, key: u64) -> [f32; Self::DIM] {
        let mut x = self.seed ^ key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut out = [0.0; Self::DIM];
        for v in &mut out {
            // splitmix64
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            *v = (z >> 40) as f32 / (1u64 << 24) as f32 - 0.5;
        }
        out
    }

    /// A unit vector for `text`: the sum of its lower-cased words' directions.
    pub fn embed(&mut self, text: &str) -> Vec<f32> {
        let mut v = vec![0.0; Self::DIM];
        for word in crate::text::words(text) {
            let key = word
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
            for (a, b) in v.iter_mut().zip(self.direction(key)) {
                *a += b;
            }
        }
        l2_normalize(&mut v);
        v
    }
}

impl Encoder for FakeEncoder {
    async fn encode(&mut self, batch: &EncodedBatch) -> Result<Vec<f32>> {
        let mut out = Vec::with_capacity(batch.batch * batch.seq * Self::DIM);
        for &id in &batch.input_ids {
            out.extend(self.direction(id as u64));
        }
        Ok(out)
    }
}
