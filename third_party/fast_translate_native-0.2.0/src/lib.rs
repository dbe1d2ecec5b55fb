//! Self-contained Rust backend for bergamot tiny11 EN<->PT translation.
//! Replaces the translateLocally subprocess entirely.

// mimalloc: low-fragmentation, high-throughput allocator. Keeps resident memory
// tight and scales better than the system allocator under many worker threads.

pub mod engine;
pub mod model;
pub mod nn;
pub mod shortlist;

use std::path::Path;
use tokenizers::Tokenizer;

use engine::{Engine, EOS, VOCAB};
use model::Model;
use shortlist::Shortlist;

/// One translation direction: model + tokenizer + shortlist.
pub struct Direction {
    engine: Engine,
    tokenizer: Tokenizer,
}

impl Direction {
    /// Load from a directory that contains:
    ///   *.intgemm.alphas.bin  (model)   lex.*.bin (shortlist)   tokenizer.json
    pub fn load<P: AsRef<Path>>(dir: P) -> Result<Direction, String> {
        let dir = dir.as_ref();
        let mut model_path = None;
        let mut shortlist_path = None;
        for entry in std::fs::read_dir(dir).map_err(|e| e.to_string())? {
            let entry = entry.map_err(|e| e.to_string())?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".intgemm.alphas.bin") {
                model_path = Some(entry.path());
            } else if name.starts_with("lex.") && name.ends_with(".bin") {
                shortlist_path = Some(entry.path());
            }
        }
        let model_path = model_path.ok_or("no *.intgemm.alphas.bin in model dir")?;
        let model = Model::load(&model_path).map_err(|e| e.to_string())?;
        let shortlist = match shortlist_path {
            Some(p) => Some(Shortlist::load(&p).map_err(|e| e.to_string())?),
            None => None,
        };
        let tok_path = dir.join("tokenizer.json");
        let tokenizer = Tokenizer::from_file(&tok_path).map_err(|e| e.to_string())?;
        Ok(Direction {
            engine: Engine::new(model, shortlist),
            tokenizer,
        })
    }

    /// Fonte: from the three files' bytes (the browser has no file system).
    pub fn from_bytes(
        model: &[u8],
        shortlist: Option<&[u8]>,
        tokenizer_json: &[u8],
    ) -> Result<Direction, String> {
        let model = Model::from_bytes(model).map_err(|e| e.to_string())?;
        let shortlist = match shortlist {
            Some(s) => Some(Shortlist::from_bytes(s).map_err(|e| e.to_string())?),
            None => None,
        };
        let tokenizer = Tokenizer::from_bytes(tokenizer_json).map_err(|e| e.to_string())?;
        Ok(Direction {
            engine: Engine::new(model, shortlist),
            tokenizer,
        })
    }

    /// Translate a single line (no structure/postprocessing — that stays in Python).
    pub fn translate(&self, text: &str) -> Result<String, String> {
        let enc = self
            .tokenizer
            .encode(text, false)
            .map_err(|e| e.to_string())?;
        let mut src_ids: Vec<u32> = enc.get_ids().to_vec();
        src_ids.push(EOS);
        let ctx = self.engine.encode(&src_ids);
        let max_len = ((2.5 * src_ids.len() as f32).ceil()) as usize;
        let out_ids = self.engine.decode_greedy(&ctx, &src_ids, max_len);
        let ids_i: Vec<u32> = out_ids;
        self.tokenizer
            .decode(&ids_i, true)
            .map_err(|e| e.to_string())
    }
}

pub const VOCAB_SIZE: usize = VOCAB;
