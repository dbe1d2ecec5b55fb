#!/usr/bin/env python3
"""Extraction fidelity of `fonte-pdf` against poppler's pdftotext (docs/QUALITY.md).

For each text PDF in shared/fixtures/pdfs/{en,pt,multicolumn,forms}: token-level F1 against
`pdftotext -layout` (tokens = whitespace-separated, after NFKC and lower-casing on both sides,
compared as multisets), page counts, and for multicolumn files a word-order score: the longest
common subsequence of the word sequences over the reference length, against plain `pdftotext`.

usage: crates/fonte-pdf/scripts/pdf_fidelity.py [--fonte target/debug/fonte-pdf] [--shared ../shared]
       crates/fonte-pdf/scripts/pdf_fidelity.py --dir target/wide-corpus [--fonte …] [--out per-file.tsv] [--explain]
         (every PDF under DIR, from crates/fonte-pdf/scripts/wide_corpus.py: word-token F1 per file, Fonte's
         report, and how many files fall in each band; a file is a text file when pdftotext
         reads at least 20 words from it; --explain adds, for each text file below 0.97, the
         words only one side reads; --mutool adds a second, independent reference, MuPDF's
         `mutool draw -F txt`: each file's F1 against it, how many files reach 0.97 against
         either reader, how often the two readers agree with each other, and the files
         missing over 1% of the words both readers read)
"""
import argparse
import collections
import pathlib
import re
import statistics
import subprocess
import sys
import time
import unicodedata

# The workspace root: this file is crates/fonte-pdf/scripts/NAME.py.
ROOT = pathlib.Path(__file__).resolve().parents[3]
FOLDERS = ["en", "pt", "multicolumn", "forms"]


def norm_tokens(text):
    """Whitespace-separated tokens, NFKC, lower-cased."""
    return unicodedata.normalize("NFKC", text).lower().split()


WORD = re.compile(r"\w+")


def word_tokens(text):
    """Word tokens (runs of letters and digits), NFKC, lower-cased: punctuation and the
    control characters pdftotext prints for glyphs it cannot map do not count."""
    return WORD.findall(unicodedata.normalize("NFKC", text).lower())


def char_grams(text, n=5):
    """Character n-grams of the text with every space and line break taken out (NFKC,
    lower-cased): blind to where words are split, so letter-spaced text that one side reads
    as "D o u b l e" and the other as "Double" scores the same."""
    flat = "".join(unicodedata.normalize("NFKC", text).lower().split())
    return [flat[i:i + n] for i in range(max(len(flat) - n + 1, 0))]


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


BANDS = [(0.97, ">= 0.97"), (0.90, "0.90-0.97"), (0.80, "0.80-0.90"), (0.50, "0.50-0.80"), (0.0, "< 0.50")]


def run_report(cmd):
    """stdout, and the report `fonte-pdf` prints on stderr (`…: N pages, report R`)."""
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    m = re.search(r"report (.*)$", p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "")
    return p.stdout, (m.group(1) if m else p.stderr.strip()[-120:] or f"exit {p.returncode}")


def boxes(info, name):
    """Every page's (left, bottom, right, top) of `name` ("MediaBox", "CropBox") in
    `pdfinfo -box -f 1 -l N` output."""
    return [tuple(float(x) for x in m.groups()) for m in
            re.finditer(rf"^Page\s+\d+ {name}:\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", info, re.M)]


def crop_area(pdf):
    """pdftotext's -x -y -W -H for the crop box, when every page has the same crop box and it
    is a part of the media box: viewers (and Fonte) show only the crop box, while pdftotext
    reads the whole media box, so a figure clipped out of a larger page (TeX's
    \\includegraphics of a PDF page with a viewport) would count text nobody sees. At
    pdftotext's default 72 dpi, from the media box's top left."""
    info = subprocess.run(["pdfinfo", "-box", "-f", "1", "-l", "100000", str(pdf)],
                          capture_output=True, text=True, errors="replace").stdout
    media, crop = set(boxes(info, "MediaBox")), set(boxes(info, "CropBox"))
    if len(media) != 1 or len(crop) != 1:
        return []
    (media,), (crop,) = media, crop
    if all(abs(a - b) < 1 for a, b in zip(media, crop)):
        return []
    x, y = crop[0] - media[0], media[3] - crop[3]
    w, h = crop[2] - crop[0], crop[3] - crop[1]
    return ["-x", str(int(x)), "-y", str(int(y)), "-W", str(int(w + 1)), "-H", str(int(h + 1))]


def mutool_text(pdf):
    """MuPDF's reading of the file (`mutool draw -F txt`), "" where it fails: a second reader,
    written apart from poppler, for telling a reference's errors from Fonte's."""
    try:
        return subprocess.run(["mutool", "draw", "-q", "-F", "txt", "-o", "-", str(pdf)],
                              capture_output=True, text=True, errors="replace", timeout=120).stdout
    except subprocess.TimeoutExpired:
        return ""


def missed_by_both(ours, ref, second, most=10):
    """The word tokens both references read and Fonte does not: (how many, how many the two
    references share, the most frequent as a `word×count` list). Blind to each reader's own
    quirks (pdftotext's split ligatures, MuPDF's order), so what it lists is likely lost."""
    shared = collections.Counter(ref) & collections.Counter(second)
    missed = shared - collections.Counter(ours)
    words = " ".join(f"{w}×{n}" for w, n in missed.most_common(most))
    return sum(missed.values()), sum(shared.values()), words


def differing_words(ours, ref, most=12):
    """The word tokens only one side reads, most frequent first, as `word×count` lists: what a
    person needs to tell which side is wrong (docs/QUALITY.md §1)."""
    a, b = collections.Counter(ours), collections.Counter(ref)
    show = lambda c: " ".join(f"{w}×{n}" for w, n in c.most_common(most))  # noqa: E731
    return show(a - b), show(b - a)


def wide(args):
    """Every PDF under --dir: word F1 against pdftotext, bands, and the files below 0.80."""
    root = pathlib.Path(args.dir)
    rows, differences, second = [], {}, {}
    for pdf in sorted(p for p in root.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file()):
        try:
            ref = subprocess.run(["pdftotext", "-layout", *crop_area(pdf), str(pdf), "-"],
                                 capture_output=True, text=True, errors="replace", timeout=120).stdout
        except subprocess.TimeoutExpired:
            ref = ""
        ref_words = word_tokens(ref)
        try:
            ours, report = run_report(["timeout", "120", args.fonte, str(pdf)])
        except Exception as e:  # noqa: BLE001 (a crash of the tool is a result too)
            ours, report = "", f"error {e}"
        score = f1(word_tokens(ours), ref_words) if ref_words else None
        chars = f1(char_grams(ours), char_grams(ref)) if ref_words else None
        rows.append((str(pdf.relative_to(root)), len(ref_words), score, report, chars))
        if args.mutool and ref_words:
            mu_words = word_tokens(mutool_text(pdf))
            second[rows[-1][0]] = (f1(word_tokens(ours), mu_words), f1(mu_words, ref_words),
                                   missed_by_both(word_tokens(ours), ref_words, mu_words))
        if args.explain and score is not None and len(ref_words) >= 20 and score < 0.97:
            differences[rows[-1][0]] = differing_words(word_tokens(ours), ref_words)
    text = [r for r in rows if r[1] >= 20]
    if args.out:
        with open(args.out, "w") as f:
            # With --mutool, F1 against MuPDF too, so that any subset's figures can be counted.
            f.write("file\tpdftotext_words\tf1_words\treport\tf1_chars"
                    + ("\tf1_mutool" if args.mutool else "") + "\n")
            for name, n, score, report, chars in rows:
                mu = f"\t{second[name][0]:.4f}" if name in second else "\t" if args.mutool else ""
                f.write(f"{name}\t{n}\t{'' if score is None else f'{score:.4f}'}\t{report}\t"
                        f"{'' if chars is None else f'{chars:.4f}'}{mu}\n")
    print(f"{len(rows)} PDFs, {len(text)} text files (pdftotext reads >= 20 words)")
    for floor, label in BANDS:
        ceiling = min((b for b, _ in BANDS if b > floor), default=2.0)
        n = sum(floor <= r[2] < ceiling for r in text)
        print(f"  F1 words {label:>10}: {n:4d} ({n / max(len(text), 1):.1%})")
    if args.mutool:
        against = lambda r: second[r[0]][0]  # noqa: E731
        either = sum(max(r[2], against(r)) >= 0.97 for r in text)
        alone = sum(against(r) >= 0.97 for r in text)
        readers = sum(second[r[0]][1] >= 0.97 for r in text)
        print(f"  against mutool >= 0.97: {alone} ({alone / len(text):.1%}); against either reader: "
              f"{either} ({either / len(text):.1%}); mutool against pdftotext: {readers} "
              f"({readers / len(text):.1%})")
        # Below 0.97 against pdftotext: which side a difference is likely on.
        below = [r for r in text if r[2] < 0.97]
        like_mu = [r for r in below if against(r) >= 0.97]
        readers_agree = [r for r in below if against(r) < 0.97 and second[r[0]][1] >= 0.97]
        print(f"  of {len(below)} below 0.97: MuPDF reads as Fonte does in {len(like_mu)}; the two "
              f"readers agree without Fonte in {len(readers_agree)}; all three differ in "
              f"{len(below) - len(like_mu) - len(readers_agree)}")
        for name, *_ in readers_agree:
            print(f"    readers agree, Fonte differs: {name}")
        # Whatever the band: words that both other readers read and Fonte does not, where
        # they are over 1% of what the readers share (and at least 3): the likeliest losses.
        lost = [(second[r[0]][2], r) for r in text]
        lost = sorted(((m, r) for m, r in lost if m[0] >= 3 and m[0] > 0.01 * m[1]),
                      key=lambda x: -x[0][0] / x[0][1])
        print(f"  files missing over 1% of the words both readers read: {len(lost)}")
        for (n, shared, words), (name, _, score, report, _) in lost:
            print(f"    {n}/{shared}  F1 {score:.4f}  {name}  {report[:70]}\n        {words}")
    print("text files below 0.80 (word F1, then the F1 of 5-grams of characters with spaces taken out:"
          " high where only the split into words differs), with Fonte's report:")
    for name, n, score, report, chars in sorted(text, key=lambda r: r[2]):
        if score < 0.80:
            print(f"  {score:.3f}  {chars:.3f}  {n:6d} words  {name}  {report}")
    if args.explain:
        print("text files below 0.97, with the words only one side reads (most frequent first):")
        for name, n, score, report, chars in sorted(text, key=lambda r: r[2]):
            if score < 0.97:
                ours_only, ref_only = differences[name]
                mu = (f"  mutool {second[name][0]:.4f} (mutool vs pdftotext {second[name][1]:.4f})"
                      if args.mutool else "")
                print(f"  {score:.4f}  chars {chars:.4f}{mu}  {n:6d} words  {name}\n"
                      f"      only Fonte:     {ours_only}\n      only pdftotext: {ref_only}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fonte", default=str(ROOT / "target/debug/fonte-pdf"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--dir", help="every PDF under this folder (the wide corpus) instead of the fixtures")
    ap.add_argument("--out", help="with --dir: per-file results as TSV")
    ap.add_argument("--mutool", action="store_true",
                    help="with --dir: also score against MuPDF's mutool (a second reader)")
    ap.add_argument("--explain", action="store_true",
                    help="with --dir: for each text file below 0.97, the words only one side reads")
    args = ap.parse_args()
    if args.dir:
        return wide(args)
    pdfs = ROOT / pathlib.Path(args.shared) / "fixtures/pdfs"
    rows, scores, wscores = [], [], []
    total = 0.0
    for folder in FOLDERS:
        for pdf in sorted((pdfs / folder).glob("*.pdf")):
            t = time.time()
            ours = run([args.fonte, str(pdf)])
            total += time.time() - t
            ref = run(["pdftotext", "-layout", str(pdf), "-"])
            our_pages = ours.rstrip("\n").split("\f")
            ref_pages = ref.rstrip("\f\n").split("\f")
            score = f1(norm_tokens(ours), norm_tokens(ref))
            scores.append(score)
            wscore = f1(word_tokens(ours), word_tokens(ref))
            wscores.append(wscore)
            order = ""
            if folder == "multicolumn":
                plain = run(["pdftotext", str(pdf), "-"]).rstrip("\f\n").split("\f")
                num = den = 0
                for o, r in zip(our_pages, plain):
                    rw, ow = norm_tokens(r), norm_tokens(o)
                    num += lcs_len(rw, ow)
                    den += len(rw)
                order = f"{num / max(den, 1):.3f}"
            rows.append((f"{folder}/{pdf.name}", len(our_pages), len(ref_pages), score, wscore, order))
    print(f"{'file':48} {'pages':>11} {'F1 tokens':>9} {'F1 words':>9} {'order':>6}")
    for name, op, rp, score, wscore, order in rows:
        flag = "" if op == rp else "  <- page count"
        print(f"{name:48} {op:>5}/{rp:<5} {score:9.4f} {wscore:9.4f} {order:>6}{flag}")
    for label, xs in (("whitespace tokens", scores), ("word tokens", wscores)):
        good = sum(s >= 0.97 for s in xs)
        print(f"{label}: median F1 {statistics.median(xs):.4f}; {good}/{len(xs)} files >= 0.97")
    print(f"fonte-pdf wall time {total:.1f} s for all files")


if __name__ == "__main__":
    sys.exit(main())
