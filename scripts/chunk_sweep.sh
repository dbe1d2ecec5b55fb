#!/usr/bin/env bash
# Chooses the default chunk size by measurement (docs/QUALITY.md): indexes the Debian FAQ PDFs
# (English and Portuguese) at several chunk sizes and overlaps and prints the retrieval metrics
# of each, with the questions' own headings stripped from the index.
#   usage: scripts/chunk_sweep.sh [fonte binary] [threads]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
FONTE="${1:-target/release/fonte}"
THREADS="${2:-2}"
SHARED="${FONTE_SHARED:-$ROOT/../shared}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/pdfs"
cp "$SHARED/fixtures/pdfs/en/debian-faq.en.pdf" "$SHARED/fixtures/pdfs/pt/debian-faq.pt.pdf" "$work/pdfs/"
specs="${SWEEP:-100:0 100:20 150:0 150:30 200:0 200:40 256:0 256:50}"
for spec in $specs; do
  target="${spec%%:*}"
  overlap="${spec##*:}"
  echo "=== target $target tokens, overlap $overlap"
  "$FONTE" index "$work/pdfs" -o "$work/idx" --target "$target" --overlap "$overlap" --threads "$THREADS" 2>&1 | grep -E "chunks|wrote"
  "$FONTE" eval "$work/idx" "$SHARED/fixtures/qa/debian_faq_en_pt_qa.jsonl" --variant both --threads "$THREADS" "${@:3}" 2>/dev/null
done
