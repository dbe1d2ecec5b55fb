#!/usr/bin/env bash
# The language axis of a bilingual model (docs/QUALITY.md §4, "The language axis"): the Debian
# Reference 2.100 in English and in its Portuguese translation (Debian packages
# debian-reference-en and debian-reference-pt, `apt-get download`, cached in
# $FONTE_TOOLS/language-axis), indexed with the model, and the difference of the mean passage
# vectors of each language (`fonte language-axis`). No document of the evaluation sets.
#
#   models/language_axis.sh models/multilingual-e5-small-enpt-int8            # prints the JSON
#   models/language_axis.sh models/multilingual-e5-small-enpt-int8 --write    # and writes it
#                                                                             # to the manifest
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/env.sh"
model="${1:?usage: models/language_axis.sh MODEL_DIR [--write]}"
version=2.100
cache="$FONTE_TOOLS/language-axis/$version"
if [ ! -f "$cache/debian-reference.pt.pdf" ]; then
  mkdir -p "$cache/debs"
  (cd "$cache/debs" && apt-get download -q "debian-reference-en=$version" "debian-reference-pt=$version") >&2
  for deb in "$cache"/debs/*.deb; do
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$cache" --wildcards --strip-components=4 '*.pdf'
  done
fi
fonte="$ROOT/target/release/fonte"
[ -x "$fonte" ] || cargo build --release -p fonte-cli --manifest-path "$ROOT/Cargo.toml"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/pdfs"
cp "$cache/debian-reference.en.pdf" "$cache/debian-reference.pt.pdf" "$work/pdfs/"
"$fonte" index "$work/pdfs" -o "$work/axis.idx" --model "$model" --threads "$(nproc)" >&2
"$fonte" language-axis "$work/axis.idx" > "$work/axis.json"
if [ "${2:-}" = --write ]; then
  python3 - "$model/manifest.json" "$work/axis.json" <<'PY'
import json, sys
manifest_path, axis_path = sys.argv[1:]
axis = json.load(open(axis_path))
manifest = json.load(open(manifest_path))
if manifest["id"] != axis["model"]:
    sys.exit(f"language_axis: the index was built with {axis['model']}, not {manifest['id']}")
manifest["language_direction"] = "AXIS"
text = json.dumps(manifest, indent=2, ensure_ascii=False)
# One line for the 384 numbers, the rest as the manifest is written.
axis_text = json.dumps([round(x, 5) for x in axis["language_direction"]])
open(manifest_path, "w").write(text.replace('"AXIS"', axis_text) + "\n")
print(f"wrote language_direction ({len(axis['language_direction'])} values) to {manifest_path}")
PY
fi
cat "$work/axis.json"
