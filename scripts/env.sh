# Sourced by the other scripts: where the pinned tools live, on PATH.
# shellcheck shell=bash
ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
export FONTE_TOOLS="${FONTE_TOOLS:-$HOME/.cache/fonte}"
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3 }' "$ROOT/Cargo.lock")"
WASM_BINDGEN_DIR="$FONTE_TOOLS/wasm-bindgen-$WASM_BINDGEN_VERSION"
TRUNK_DIR="$FONTE_TOOLS/trunk-0.21.14"
export PATH="$TRUNK_DIR/bin:$WASM_BINDGEN_DIR/bin:$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export ORT_DYLIB_PATH="${ORT_DYLIB_PATH:-$ROOT/models/native/libonnxruntime.so.1.32.0}"
export CHROMEDRIVER=/usr/bin/chromedriver
# Python with models/requirements.txt (model conversion and its parity test), made by setup.sh.
MODELS_VENV="$FONTE_TOOLS/models-venv"
MODELS_PY="$MODELS_VENV/bin/python"
# The tiny real LLM and llama-server the tests ask (made by scripts/llm_setup.sh).
LLAMA_VERSION=11434.0.0
SMOLLM_VERSION=0.1.2
LLAMA_DIR="$FONTE_TOOLS/llama-server-$LLAMA_VERSION"
export FONTE_LLAMA_SERVER="$LLAMA_DIR/bin/llama-server"
export FONTE_LLM_GGUF="$FONTE_TOOLS/smollm2-$SMOLLM_VERSION/SmolLM2-135M-Instruct.Q4_1.gguf"
