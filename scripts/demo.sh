#!/usr/bin/env bash
# Builds the demo corpus (the Debian FAQ in English and in Portuguese, from the test fixtures;
# their permission notice allows verbatim copies: docs/BUNDLE.md, "The demo corpus") with the
# release CLI, once per version of its inputs, and prints its path. Needs scripts/setup.sh first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SHARED="${FONTE_SHARED:-$ROOT/../shared}"
PDFS=("$SHARED/fixtures/pdfs/en/debian-faq.en.pdf" "$SHARED/fixtures/pdfs/pt/debian-faq.pt.pdf")
for f in "${PDFS[@]}"; do
  [ -f "$f" ] || { echo "demo corpus: $f not found (set FONTE_SHARED)" >&2; exit 1; }
done
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
# Rebuilt when the PDFs, the model or the code that reads, chunks and embeds them change.
key="$( { sha256sum "${PDFS[@]}" scripts/demo.sh models/catalog.json models/*/manifest.json;
          find crates/fonte-pdf/src crates/fonte-pdf/data crates/fonte-core/src crates/fonte-cli/src Cargo.lock -type f -print0 | sort -z | xargs -0 sha256sum; } \
        | sha256sum | cut -c1-16)"
out="$TARGET/demo/$key/debian-faq.fonte"
if [ ! -f "$out" ]; then
  cargo build --release -p fonte-cli >&2
  mkdir -p "$(dirname "$out")"
  # The app's default model (models/catalog.json), so the demo opens in the library a new
  # reader would build.
  "$TARGET/release/fonte" bundle "${PDFS[@]}" -o "$out.part" --model models/multilingual-e5-small-enpt-int8 \
    --title "Debian FAQ (English, Português)" \
    --description "The Debian GNU/Linux FAQ in English and in Brazilian Portuguese (Debian debian-faq 11.1), a demo corpus of Fonte." >&2
  mv "$out.part" "$out"
fi
echo "$out"
