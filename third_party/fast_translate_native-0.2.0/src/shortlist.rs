//! Lexical shortlist (binary s2t) loader — restricts the decoder output vocabulary.

use std::path::Path;

const MAGIC: u64 = 0xF11A48D5013417F5;

pub struct Shortlist {
    pub first_num: u64,
    pub word2off: Vec<u64>,
    pub shortlists: Vec<u32>,
}

impl Shortlist {
    pub fn load<P: AsRef<Path>>(path: P) -> std::io::Result<Shortlist> {
        Self::from_bytes(&std::fs::read(path)?)
    }

    /// Fonte: from the file's bytes (the browser has no file system).
    pub fn from_bytes(data: &[u8]) -> std::io::Result<Shortlist> {
        let rd = |o: usize| u64::from_le_bytes(data[o..o + 8].try_into().unwrap());
        let magic = rd(0);
        assert_eq!(magic, MAGIC, "bad shortlist magic");
        let first_num = rd(16);
        let _best_num = rd(24);
        let w2o_size = rd(32) as usize;
        let sl_size = rd(40) as usize;
        let mut off = 48;
        let mut word2off = Vec::with_capacity(w2o_size);
        for _ in 0..w2o_size {
            word2off.push(u64::from_le_bytes(data[off..off + 8].try_into().unwrap()));
            off += 8;
        }
        let mut shortlists = Vec::with_capacity(sl_size);
        for _ in 0..sl_size {
            shortlists.push(u32::from_le_bytes(data[off..off + 4].try_into().unwrap()));
            off += 4;
        }
        Ok(Shortlist {
            first_num,
            word2off,
            shortlists,
        })
    }

    /// Candidate target ids for a batch of source ids: {0..first_num} ∪ per-token candidates,
    /// padded to a multiple of 8. Returned sorted ascending.
    pub fn candidates(&self, src_ids: &[u32], vocab: usize) -> Vec<u32> {
        let mut keep = vec![false; vocab];
        let fn_ = (self.first_num as usize).min(vocab);
        for i in 0..fn_ {
            keep[i] = true;
        }
        for &s in src_ids {
            let s = s as usize;
            if s + 1 < self.word2off.len() {
                let a = self.word2off[s] as usize;
                let b = self.word2off[s + 1] as usize;
                for &t in &self.shortlists[a..b] {
                    keep[t as usize] = true;
                }
            }
        }
        let mut ids: Vec<u32> = (0..vocab).filter(|&i| keep[i]).map(|i| i as u32).collect();
        if ids.len() % 8 != 0 {
            let mut need = 8 - (ids.len() % 8);
            let mut i = fn_;
            while need > 0 && i < vocab {
                if !keep[i] {
                    ids.push(i as u32);
                    need -= 1;
                }
                i += 1;
            }
            ids.sort_unstable();
        }
        ids
    }
}
