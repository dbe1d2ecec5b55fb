//! Bergamot tiny11 (Marian SSRU transformer) forward pass + greedy decoding.
//! All weights are resolved into typed structs once at load; the hot path does
//! no string formatting or hashmap lookups.

use crate::model::{Model, QuantTensor, Tensor};
use crate::nn::*;
use crate::shortlist::Shortlist;

pub const DIM: usize = 256;
pub const HEADS: usize = 8;
pub const DK: usize = DIM / HEADS;
pub const ENC_LAYERS: usize = 6;
pub const DEC_LAYERS: usize = 2;
pub const EOS: u32 = 0;
pub const VOCAB: usize = 32000;
const EMB_SCALE: f32 = 16.0; // sqrt(256)

struct Attn {
    wq: Tensor,
    bq: Tensor,
    wk: Tensor,
    bk: Tensor,
    wv: Tensor,
    bv: Tensor,
    wo: Tensor,
    bo: Tensor,
    ln_scale: Tensor,
    ln_bias: Tensor,
}

struct Ffn {
    w1: Tensor,
    b1: Tensor,
    w2: Tensor,
    b2: Tensor,
    ln_scale: Tensor,
    ln_bias: Tensor,
    hidden: usize,
}

struct EncLayer {
    attn: Attn,
    ffn: Ffn,
}

struct Ssru {
    w: Tensor,
    wf: Tensor,
    bf: Tensor,
    ln_scale: Tensor,
    ln_bias: Tensor,
}

struct DecLayer {
    ssru: Ssru,
    cross: Attn,
    ffn: Ffn,
}

pub struct Engine {
    enc: Vec<EncLayer>,
    dec: Vec<DecLayer>,
    wemb: QuantTensor, // embedding table kept int8; rows dequantized on demand
    logit_b: Tensor,
    shortlist: Option<Shortlist>,
}

impl Engine {
    /// Dequantize embedding/output row `id` into `out` (length DIM).
    #[inline]
    fn wemb_row_into(&self, id: usize, out: &mut [f32]) {
        let src = &self.wemb.data[id * DIM..id * DIM + DIM];
        let s = self.wemb.scale;
        for (o, &v) in out.iter_mut().zip(src.iter()) {
            *o = v as f32 * s;
        }
    }
}

fn take(m: &mut Model, name: &str) -> Tensor {
    m.tensors
        .remove(name)
        .unwrap_or_else(|| panic!("missing tensor {name}"))
}

fn load_attn(m: &mut Model, prefix: &str, ln_prefix: &str) -> Attn {
    Attn {
        wq: take(m, &format!("{prefix}_Wq")),
        bq: take(m, &format!("{prefix}_bq")),
        wk: take(m, &format!("{prefix}_Wk")),
        bk: take(m, &format!("{prefix}_bk")),
        wv: take(m, &format!("{prefix}_Wv")),
        bv: take(m, &format!("{prefix}_bv")),
        wo: take(m, &format!("{prefix}_Wo")),
        bo: take(m, &format!("{prefix}_bo")),
        ln_scale: take(m, &format!("{ln_prefix}_ln_scale")),
        ln_bias: take(m, &format!("{ln_prefix}_ln_bias")),
    }
}

fn load_ffn(m: &mut Model, prefix: &str) -> Ffn {
    let w1 = take(m, &format!("{prefix}_W1"));
    let hidden = w1.cols();
    Ffn {
        w1,
        b1: take(m, &format!("{prefix}_b1")),
        w2: take(m, &format!("{prefix}_W2")),
        b2: take(m, &format!("{prefix}_b2")),
        ln_scale: take(m, &format!("{prefix}_ffn_ln_scale")),
        ln_bias: take(m, &format!("{prefix}_ffn_ln_bias")),
        hidden,
    }
}

fn sinusoid_into(out: &mut [f32], pos: usize) {
    let half = DIM / 2;
    let p = pos as f32;
    for i in 0..half {
        let inv = 10000f32.powf(-(i as f32) / (half as f32 - 1.0));
        let v = p * inv;
        out[i] = v.sin();
        out[half + i] = v.cos();
    }
}

impl Engine {
    pub fn new(mut model: Model, shortlist: Option<Shortlist>) -> Engine {
        let mut enc = Vec::with_capacity(ENC_LAYERS);
        for l in 1..=ENC_LAYERS {
            let p = format!("encoder_l{l}");
            enc.push(EncLayer {
                attn: load_attn(&mut model, &format!("{p}_self"), &format!("{p}_self_Wo")),
                ffn: load_ffn(&mut model, &format!("{p}_ffn")),
            });
        }
        let mut dec = Vec::with_capacity(DEC_LAYERS);
        for l in 1..=DEC_LAYERS {
            let p = format!("decoder_l{l}");
            let ssru = Ssru {
                w: take(&mut model, &format!("{p}_rnn_W")),
                wf: take(&mut model, &format!("{p}_rnn_Wf")),
                bf: take(&mut model, &format!("{p}_rnn_bf")),
                ln_scale: take(&mut model, &format!("{p}_rnn_ffn_ln_scale")),
                ln_bias: take(&mut model, &format!("{p}_rnn_ffn_ln_bias")),
            };
            let cross = load_attn(
                &mut model,
                &format!("{p}_context"),
                &format!("{p}_context_Wo"),
            );
            let ffn = load_ffn(&mut model, &format!("{p}_ffn"));
            dec.push(DecLayer { ssru, cross, ffn });
        }
        let wemb = model.wemb_i8.take().expect("missing Wemb (int8)");
        let logit_b = take(&mut model, "decoder_ff_logit_out_b");
        Engine {
            enc,
            dec,
            wemb,
            logit_b,
            shortlist,
        }
    }

    fn ffn(&self, x: &[f32], rows: usize, f: &Ffn) -> Vec<f32> {
        let mut h = linear(x, rows, DIM, &f.w1, Some(&f.b1));
        relu_inplace(&mut h);
        linear(&h, rows, f.hidden, &f.w2, Some(&f.b2))
    }

    /// Encoder self-attention (bidirectional, no mask). x: (s, DIM).
    fn enc_self_attn(&self, x: &[f32], s: usize, a: &Attn) -> Vec<f32> {
        let q = linear(x, s, DIM, &a.wq, Some(&a.bq));
        let k = linear(x, s, DIM, &a.wk, Some(&a.bk));
        let v = linear(x, s, DIM, &a.wv, Some(&a.bv));
        let scale = 1.0 / (DK as f32).sqrt();
        let mut ctx = vec![0f32; s * DIM];
        let mut scores = vec![0f32; s];
        for h in 0..HEADS {
            let ho = h * DK;
            for i in 0..s {
                let qi = &q[i * DIM + ho..i * DIM + ho + DK];
                for j in 0..s {
                    let kj = &k[j * DIM + ho..j * DIM + ho + DK];
                    scores[j] = dot(qi, kj) * scale;
                }
                softmax(&mut scores);
                let out = &mut ctx[i * DIM + ho..i * DIM + ho + DK];
                for j in 0..s {
                    let vj = &v[j * DIM + ho..j * DIM + ho + DK];
                    let w = scores[j];
                    for t in 0..DK {
                        out[t] += w * vj[t];
                    }
                }
            }
        }
        linear(&ctx, s, DIM, &a.wo, Some(&a.bo))
    }

    pub fn encode(&self, src_ids: &[u32]) -> Vec<f32> {
        let s = src_ids.len();
        let mut x = vec![0f32; s * DIM];
        let mut pos = vec![0f32; DIM];
        let sc = self.wemb.scale;
        for (i, &tok) in src_ids.iter().enumerate() {
            sinusoid_into(&mut pos, i);
            let emb = &self.wemb.data[tok as usize * DIM..tok as usize * DIM + DIM];
            for d in 0..DIM {
                x[i * DIM + d] = (emb[d] as f32 * sc) * EMB_SCALE + pos[d];
            }
        }
        for layer in &self.enc {
            let attn = self.enc_self_attn(&x, s, &layer.attn);
            add_inplace(&mut x, &attn);
            layernorm(&mut x, s, DIM, &layer.attn.ln_scale, &layer.attn.ln_bias);
            let ff = self.ffn(&x, s, &layer.ffn);
            add_inplace(&mut x, &ff);
            layernorm(&mut x, s, DIM, &layer.ffn.ln_scale, &layer.ffn.ln_bias);
        }
        x
    }

    /// Precompute per-layer cross-attention K,V from encoder context.
    fn cross_kv(&self, enc: &[f32], s: usize) -> Vec<(Vec<f32>, Vec<f32>)> {
        self.dec
            .iter()
            .map(|d| {
                let k = linear(enc, s, DIM, &d.cross.wk, Some(&d.cross.bk));
                let v = linear(enc, s, DIM, &d.cross.wv, Some(&d.cross.bv));
                (k, v)
            })
            .collect()
    }

    fn cross_attn(&self, q: &[f32], k: &[f32], v: &[f32], s: usize, a: &Attn) -> Vec<f32> {
        let qp = linear(q, 1, DIM, &a.wq, Some(&a.bq));
        let scale = 1.0 / (DK as f32).sqrt();
        let mut ctx = vec![0f32; DIM];
        let mut scores = vec![0f32; s];
        for h in 0..HEADS {
            let ho = h * DK;
            let qh = &qp[ho..ho + DK];
            for j in 0..s {
                let kj = &k[j * DIM + ho..j * DIM + ho + DK];
                scores[j] = dot(qh, kj) * scale;
            }
            softmax(&mut scores);
            let out = &mut ctx[ho..ho + DK];
            for j in 0..s {
                let vj = &v[j * DIM + ho..j * DIM + ho + DK];
                let w = scores[j];
                for t in 0..DK {
                    out[t] += w * vj[t];
                }
            }
        }
        linear(&ctx, 1, DIM, &a.wo, Some(&a.bo))
    }

    pub fn decode_greedy(&self, enc: &[f32], src_ids: &[u32], max_len: usize) -> Vec<u32> {
        let s = enc.len() / DIM;
        let kv = self.cross_kv(enc, s);
        let cand: Option<Vec<u32>> = self
            .shortlist
            .as_ref()
            .map(|sl| sl.candidates(src_ids, VOCAB));

        // Gather the (fixed) candidate embedding rows into a contiguous buffer once,
        // so the per-step output projection streams sequentially instead of chasing
        // scattered rows across the 32 MB embedding table.
        // Gather + dequantize the (fixed) candidate embedding rows once into a
        // contiguous f32 buffer so the per-step output projection is dense and
        // cache-friendly. With a shortlist this is a few hundred rows; without one
        // it materializes the full table for the duration of this call.
        let full_vocab: Vec<u32>;
        let cand_ids: &[u32] = match &cand {
            Some(c) => c,
            None => {
                full_vocab = (0..VOCAB as u32).collect();
                &full_vocab
            }
        };
        let ncand = cand_ids.len();
        let mut proj_w = vec![0f32; ncand * DIM];
        let mut proj_b = vec![0f32; ncand];
        for (i, &cid) in cand_ids.iter().enumerate() {
            self.wemb_row_into(cid as usize, &mut proj_w[i * DIM..i * DIM + DIM]);
            proj_b[i] = self.logit_b.data[cid as usize];
        }

        let mut cell = vec![vec![0f32; DIM]; DEC_LAYERS];
        let mut out = Vec::new();
        let mut prev = EOS;
        let mut posv = vec![0f32; DIM];
        let mut pos = 0usize;

        loop {
            sinusoid_into(&mut posv, pos);
            let mut q = vec![0f32; DIM];
            if pos == 0 {
                q.copy_from_slice(&posv);
            } else {
                let emb = &self.wemb.data[prev as usize * DIM..prev as usize * DIM + DIM];
                let sc = self.wemb.scale;
                for d in 0..DIM {
                    q[d] = (emb[d] as f32 * sc) * EMB_SCALE + posv[d];
                }
            }

            for (li, layer) in self.dec.iter().enumerate() {
                // SSRU
                let z = linear(&q, 1, DIM, &layer.ssru.w, None);
                let mut f = linear(&q, 1, DIM, &layer.ssru.wf, Some(&layer.ssru.bf));
                let c = &mut cell[li];
                for d in 0..DIM {
                    let ff = sigmoid(f[d]);
                    c[d] = ff * c[d] + (1.0 - ff) * z[d];
                    f[d] = c[d].max(0.0); // reuse f as relu(c)
                }
                add_inplace(&mut f, &q);
                layernorm(&mut f, 1, DIM, &layer.ssru.ln_scale, &layer.ssru.ln_bias);
                q = f;
                // cross attention
                let (ref k, ref v) = kv[li];
                let ca = self.cross_attn(&q, k, v, s, &layer.cross);
                add_inplace(&mut q, &ca);
                layernorm(&mut q, 1, DIM, &layer.cross.ln_scale, &layer.cross.ln_bias);
                // ffn
                let ff = self.ffn(&q, 1, &layer.ffn);
                add_inplace(&mut q, &ff);
                layernorm(&mut q, 1, DIM, &layer.ffn.ln_scale, &layer.ffn.ln_bias);
            }

            // output projection over the contiguous candidate rows (argmax)
            let mut best = f32::NEG_INFINITY;
            let mut best_idx = 0usize;
            for i in 0..ncand {
                let row = &proj_w[i * DIM..i * DIM + DIM];
                let d = dot(&q, row) + proj_b[i];
                if d > best {
                    best = d;
                    best_idx = i;
                }
            }
            let best_tok: u32 = match &cand {
                Some(c) => c[best_idx],
                None => best_idx as u32,
            };

            if best_tok == EOS {
                break;
            }
            out.push(best_tok);
            prev = best_tok;
            pos += 1;
            if out.len() >= max_len {
                break;
            }
        }
        out
    }
}
