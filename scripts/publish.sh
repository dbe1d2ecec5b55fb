#!/usr/bin/env bash
# Makes a publishable folder for any static host: the release app plus bundles, the first
# opened by default (docs/BUNDLE.md, "Publishing"). Usage:
#   scripts/publish.sh OUT_DIR [corpus.fonte ...]   (no bundle: the demo corpus;
#   --no-demo: none)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: scripts/publish.sh OUT_DIR [corpus.fonte ...]}"
shift
bundles=()
demo=1
for b in "$@"; do
  if [ "$b" = --no-demo ]; then demo=0; else bundles+=("$(realpath "$b")"); fi
done
out="$(realpath -m "$out")"
cd "$ROOT"
bash scripts/setup.sh --app >&2
# shellcheck source=scripts/env.sh
source scripts/env.sh
trunk build --release --offline --skip-version-check >&2
if [ ${#bundles[@]} -eq 0 ] && [ $demo = 1 ]; then
  bundles=("$(bash scripts/demo.sh)")
fi
python3 scripts/publish.py --app dist --out "$out" ${bundles[@]+"${bundles[@]}"}
