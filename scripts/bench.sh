#!/usr/bin/env bash
# Browser and native benchmark (not a test): builds the release app and CLI, then runs
# scripts/bench_browser.mjs, which prints a markdown table (docs/PERFORMANCE.md has the last one).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
scripts/setup.sh
source scripts/env.sh
cargo build --release -p fonte-cli
trunk build --release --offline --skip-version-check
node scripts/bench_browser.mjs "$@"
