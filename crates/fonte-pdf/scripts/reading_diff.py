#!/usr/bin/env python3
"""Which of two Fonte binaries reads the words better, where no reference reads them: for each
PDF whose word F1 or report differs between two `pdf_fidelity.py --out` tables of the same
corpus, the word tokens only the new binary reads and only the old one reads, and how many of
each are in a word list (letters-only tokens). Words a fix recovers that pdftotext and MuPDF
lose too ("first" for "rst", "specification" for "speci cation") lower the F1 against them;
their share of real words says whether the change read better (QUALITY §1, stop 42).

    python3 crates/fonte-pdf/scripts/reading_diff.py OLD.tsv NEW.tsv --old /tmp/fonte-old --new target/release/fonte-pdf \
        [--dir target/wide-corpus] [--words /usr/share/dict/words]

The word list is Debian's `wamerican` (`apt-get install wamerican`); any list of one word a
line will do. Not part of the tests.
"""
import argparse
import collections
import csv
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import pdf_fidelity as pf  # noqa: E402


def load(path):
    with open(path) as f:
        return {r["file"]: r for r in csv.DictReader(f, delimiter="\t")}


def tokens(exe, pdf):
    out = subprocess.run([exe, str(pdf)], capture_output=True, text=True, errors="replace").stdout
    return collections.Counter(pf.word_tokens(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old_tsv")
    ap.add_argument("new_tsv")
    ap.add_argument("--old", required=True, help="the old fonte-pdf binary")
    ap.add_argument("--new", required=True, help="the new fonte-pdf binary")
    ap.add_argument("--dir", default="target/wide-corpus", type=pathlib.Path)
    ap.add_argument("--words", default="/usr/share/dict/words")
    args = ap.parse_args()
    with open(args.words, encoding="utf-8", errors="replace") as f:
        words = {w.strip().lower() for w in f}
    old, new = load(args.old_tsv), load(args.new_tsv)
    total = collections.Counter()
    for name in sorted(new):
        a, b = old.get(name), new[name]
        if a is None or (a["f1_words"], a["report"]) == (b["f1_words"], b["report"]):
            continue
        pdf = args.dir / name
        was, now = tokens(args.old, pdf), tokens(args.new, pdf)
        gained, lost = now - was, was - now

        def share(c):
            letters = [(w, n) for w, n in c.items() if w.isalpha()]
            return sum(n for w, n in letters if w in words), sum(n for _, n in letters)

        (wg, ng), (wl, nl) = share(gained), share(lost)
        total.update(wg=wg, ng=ng, wl=wl, nl=nl)
        top = lambda c: " ".join(f"{w}×{n}" for w, n in c.most_common(6))
        print(f"{a['f1_words']} -> {b['f1_words']}  {name}")
        print(f"    only new: {wg}/{ng} words  {top(gained)}")
        print(f"    only old: {wl}/{nl} words  {top(lost)}")
    pct = lambda a, b: f"{a / b:.1%}" if b else "-"
    print(f"tokens only the new binary reads: {total['wg']}/{total['ng']} ({pct(total['wg'], total['ng'])}) in the word list; "
          f"only the old: {total['wl']}/{total['nl']} ({pct(total['wl'], total['nl'])})")


if __name__ == "__main__":
    main()
