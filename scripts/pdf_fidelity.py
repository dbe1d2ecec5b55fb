#!/usr/bin/env python3
"""Extraction fidelity of `fonte pdftext` against poppler's pdftotext (docs/QUALITY.md).

For each text PDF in shared/fixtures/pdfs/{en,pt,multicolumn,forms}: token-level F1 against
`pdftotext -layout` (tokens = whitespace-separated, after NFKC and lower-casing on both sides,
compared as multisets), page counts, and for multicolumn files a word-order score: the longest
common subsequence of the word sequences over the reference length, against plain `pdftotext`.

usage: scripts/pdf_fidelity.py [--fonte target/debug/fonte] [--shared ../shared]
"""
import argparse
import collections
import pathlib
import statistics
import subprocess
import sys
import time
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ["en", "pt", "multicolumn", "forms"]


def norm_tokens(text):
    return unicodedata.normalize("NFKC", text).lower().split()


def f1(ours, ref):
    a, b = collections.Counter(ours), collections.Counter(ref)
    overlap = sum((a & b).values())
    if not ours or not ref:
        return 0.0
    p, r = overlap / len(ours), overlap / len(ref)
    return 0.0 if overlap == 0 else 2 * p * r / (p + r)


def lcs_len(a, b):
    """Bit-parallel LCS length (Hyyro 2004): O(len(a) * len(b) / wordsize)."""
    if not a or not b:
        return 0
    masks = collections.defaultdict(int)
    for i, w in enumerate(a):
        masks[w] |= 1 << i
    v = (1 << len(a)) - 1
    full = v
    for w in b:
        m = masks.get(w, 0)
        u = v & m
        v = ((v + u) | (v - u)) & full
    return len(a) - bin(v).count("1")


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace").stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fonte", default=str(ROOT / "target/debug/fonte"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    args = ap.parse_args()
    pdfs = ROOT / pathlib.Path(args.shared) / "fixtures/pdfs"
    rows, scores = [], []
    total = 0.0
    for folder in FOLDERS:
        for pdf in sorted((pdfs / folder).glob("*.pdf")):
            t = time.time()
            ours = run([args.fonte, "pdftext", str(pdf)])
            total += time.time() - t
            ref = run(["pdftotext", "-layout", str(pdf), "-"])
            our_pages = ours.rstrip("\n").split("\f")
            ref_pages = ref.rstrip("\f\n").split("\f")
            score = f1(norm_tokens(ours), norm_tokens(ref))
            scores.append(score)
            order = ""
            if folder == "multicolumn":
                plain = run(["pdftotext", str(pdf), "-"]).rstrip("\f\n").split("\f")
                num = den = 0
                for o, r in zip(our_pages, plain):
                    rw, ow = norm_tokens(r), norm_tokens(o)
                    num += lcs_len(rw, ow)
                    den += len(rw)
                order = f"{num / max(den, 1):.3f}"
            rows.append((f"{folder}/{pdf.name}", len(our_pages), len(ref_pages), score, order))
    print(f"{'file':48} {'pages':>11} {'F1':>7} {'order':>6}")
    for name, op, rp, score, order in rows:
        flag = "" if op == rp else "  <- page count"
        print(f"{name:48} {op:>5}/{rp:<5} {score:7.4f} {order:>6}{flag}")
    good = sum(s >= 0.97 for s in scores)
    print(f"\nmedian F1 {statistics.median(scores):.4f}; {good}/{len(scores)} files >= 0.97; "
          f"fonte pdftext wall time {total:.1f} s for all files")


if __name__ == "__main__":
    sys.exit(main())
