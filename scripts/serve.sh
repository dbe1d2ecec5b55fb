#!/usr/bin/env bash
# Builds the app (release) with the demo corpus as a published folder (scripts/publish.sh) and
# serves it on http://127.0.0.1:${PORT:-8080}/. A first visit opens the demo corpus; "Open my
# library" switches to your own documents.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
site="${CARGO_TARGET_DIR:-$ROOT/target}/site"
if [ -d "${FONTE_SHARED:-$ROOT/../shared}/fixtures/pdfs" ]; then
  bash scripts/publish.sh "$site"
else
  # Without the fixtures there is no demo corpus: the app alone.
  echo "demo corpus: fixtures not found (set FONTE_SHARED); serving the app without it" >&2
  bash scripts/publish.sh "$site" --no-demo
fi
echo "Fonte: http://127.0.0.1:${PORT:-8080}/"
# Cross-origin isolated (COOP/COEP), so onnxruntime-web can embed with one thread per core
# (docs/PERFORMANCE.md). Any static server works too: the service worker adds those headers.
exec python3 scripts/static_server.py --directory "$site" --port "${PORT:-8080}" --isolate
