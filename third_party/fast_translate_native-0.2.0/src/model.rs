//! Loader for Marian intgemm8 binary models. Dequantizes int8 weights to f32,
//! reproducing exactly what translateLocally/bergamot loads.

use std::collections::HashMap;
use std::path::Path;

const INTGEMM8: u64 = 16641; // 0x4101
const FLOAT32: u64 = 1028; // 0x0404
const INT8_STR: u64 = 257; // 0x0101 (yaml string)

#[derive(Clone)]
pub struct Tensor {
    pub data: Vec<f32>,
    pub shape: Vec<usize>,
}

impl Tensor {
    #[inline]
    pub fn rows(&self) -> usize {
        self.shape[0]
    }
    #[inline]
    pub fn cols(&self) -> usize {
        *self.shape.last().unwrap()
    }
}

/// An int8 tensor kept quantized in memory (dequantized on demand, one row at a
/// time). Used for the large embedding table to keep resident memory low.
pub struct QuantTensor {
    pub data: Vec<i8>,
    pub scale: f32, // dequant factor = 1/quantMult
    pub shape: Vec<usize>,
}

pub struct Model {
    pub tensors: HashMap<String, Tensor>,
    pub wemb_i8: Option<QuantTensor>,
    pub yaml: String,
}

fn rd_u64(buf: &[u8], off: &mut usize) -> u64 {
    let v = u64::from_le_bytes(buf[*off..*off + 8].try_into().unwrap());
    *off += 8;
    v
}

impl Model {
    pub fn load<P: AsRef<Path>>(path: P) -> std::io::Result<Model> {
        Self::from_bytes(&std::fs::read(path)?)
    }

    /// Fonte: from the file's bytes (the browser has no file system).
    pub fn from_bytes(data: &[u8]) -> std::io::Result<Model> {
        let mut off = 0usize;
        let _version = rd_u64(&data, &mut off);
        let num = rd_u64(&data, &mut off) as usize;
        let mut headers = Vec::with_capacity(num);
        for _ in 0..num {
            let name_len = rd_u64(&data, &mut off) as usize;
            let typ = rd_u64(&data, &mut off);
            let shape_len = rd_u64(&data, &mut off) as usize;
            let data_len = rd_u64(&data, &mut off) as usize;
            headers.push((name_len, typ, shape_len, data_len));
        }
        let mut names = Vec::with_capacity(num);
        for &(name_len, _, _, _) in &headers {
            let raw = &data[off..off + name_len];
            let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
            names.push(String::from_utf8_lossy(&raw[..end]).into_owned());
            off += name_len;
        }
        let mut shapes = Vec::with_capacity(num);
        for &(_, _, shape_len, _) in &headers {
            let mut s = Vec::with_capacity(shape_len);
            for _ in 0..shape_len {
                let v = i32::from_le_bytes(data[off..off + 4].try_into().unwrap());
                off += 4;
                s.push(v as usize);
            }
            shapes.push(s);
        }
        // align to 256-byte boundary for first data item
        off = (off + 255) / 256 * 256;

        let mut tensors = HashMap::new();
        let mut wemb_i8: Option<QuantTensor> = None;
        let mut yaml = String::new();
        let mut o = off;
        for i in 0..num {
            let (_, typ, _, data_len) = headers[i];
            let name = &names[i];
            let shape = &shapes[i];
            let nelem: usize = shape.iter().product::<usize>().max(1);
            let blob = &data[o..o + data_len];
            o += data_len;
            match typ {
                INTGEMM8 => {
                    // int8 body of `nelem` bytes, then f32 quantMultB at offset nelem.
                    let qb = f32::from_le_bytes(blob[nelem..nelem + 4].try_into().unwrap());
                    let inv = 1.0f32 / qb;
                    let int8 = &blob[..nelem];
                    if name == "Wemb" {
                        // Keep the embedding table quantized (int8) to save ~24 MB/direction;
                        // rows are dequantized on demand. Not transposed on disk.
                        wemb_i8 = Some(QuantTensor {
                            data: int8.iter().map(|&b| b as i8).collect(),
                            scale: inv,
                            shape: shape.clone(),
                        });
                        continue;
                    }
                    let is_weight = is_weight_name(name);
                    if is_weight {
                        // on-disk data is val^T row-major with true dims (shape[1], shape[0]);
                        // recover logical val of shape `shape`.
                        let r = shape[0];
                        let c = shape[1];
                        let mut out = vec![0f32; nelem];
                        // stored[j*r + i] corresponds to val[i][j]
                        for j in 0..c {
                            for i in 0..r {
                                out[i * c + j] = (int8[j * r + i] as i8 as f32) * inv;
                            }
                        }
                        tensors.insert(
                            name.clone(),
                            Tensor {
                                data: out,
                                shape: shape.clone(),
                            },
                        );
                    } else {
                        let out: Vec<f32> = int8.iter().map(|&b| (b as i8 as f32) * inv).collect();
                        tensors.insert(
                            name.clone(),
                            Tensor {
                                data: out,
                                shape: if shape.is_empty() {
                                    vec![nelem]
                                } else {
                                    shape.clone()
                                },
                            },
                        );
                    }
                }
                FLOAT32 => {
                    let mut out = vec![0f32; nelem];
                    for k in 0..nelem {
                        out[k] = f32::from_le_bytes(blob[k * 4..k * 4 + 4].try_into().unwrap());
                    }
                    tensors.insert(
                        name.clone(),
                        Tensor {
                            data: out,
                            shape: if shape.is_empty() {
                                vec![nelem]
                            } else {
                                shape.clone()
                            },
                        },
                    );
                }
                INT8_STR => {
                    let end = blob.iter().position(|&b| b == 0).unwrap_or(blob.len());
                    yaml = String::from_utf8_lossy(&blob[..end]).into_owned();
                }
                _ => {}
            }
        }
        Ok(Model {
            tensors,
            wemb_i8,
            yaml,
        })
    }

    #[inline]
    pub fn get(&self, name: &str) -> &Tensor {
        self.tensors
            .get(name)
            .unwrap_or_else(|| panic!("missing tensor {name}"))
    }
}

/// Matches marian's `_W` weight naming: names ending in `_W` or `_W?` (one char),
/// e.g. `_Wq _Wk _Wv _Wo _Wf _W1 _W2` and `rnn_W`. Excludes Wemb.
fn is_weight_name(name: &str) -> bool {
    if name.contains("Wemb") {
        return false;
    }
    if name.ends_with("_W") {
        return true;
    }
    let b = name.as_bytes();
    b.len() >= 3 && b[b.len() - 3] == b'_' && b[b.len() - 2] == b'W'
}
