#!/usr/bin/env bash
# Builds the app (release) and serves it on http://127.0.0.1:${PORT:-8080}/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh
trunk build --release --offline --skip-version-check
echo "Fonte: http://127.0.0.1:${PORT:-8080}/"
# Cross-origin isolated (COOP/COEP), so onnxruntime-web can embed with one thread per core
# (docs/PERFORMANCE.md: 1.5x faster on 2 cores). The app also works without these headers.
exec python3 scripts/static_server.py --directory dist --port "${PORT:-8080}" --isolate
