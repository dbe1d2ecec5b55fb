#!/usr/bin/env python3
"""Make a publishable folder: the built app (Trunk's `dist/`) plus bundles, for any static host.

    python3 scripts/publish.py --app dist --out site corpus.fonte [more.fonte ...]

(`scripts/publish.sh` builds the app first.) The first bundle is the corpus the page opens on
a first visit; every bundle can also be opened with `?corpus=corpus/<name>`. What it adds to
the app (docs/BUNDLE.md, "Publishing"):
- `corpus/<name>.fonte`, read by the page with range requests (PDFs only when shown);
- `sw.js`, the service worker (from `public/sw.js`) with this version's file list and SHA-256
  of each file: it caches the app for offline use, adds COOP/COEP so onnxruntime-web gets
  threads on hosts that cannot send headers, and serves one version's files only;
- in `index.html`: `<meta name="fonte-corpus">`, `<meta name="fonte-offline">` and the
  Content-Security-Policy as a `<meta>` (what scripts/static_server.py sends as a header),
  so the policy holds on hosts that send none.
The folder is written beside the target and moved into place, so a failed run leaves the
previous one whole.
"""
import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from static_server import csp  # noqa: E402

# Cached at install (small, needed to start); the rest is cached as it is used, and in the
# background once the app is up.
SHELL_SUFFIXES = (".js", ".wasm", ".css", ".html")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def files_of(root):
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if rel == "sw.js" or rel.endswith(".fonte"):
                continue
            out[rel] = sha256(path)
    return dict(sorted(out.items()))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--app", default="dist", help="the built app (trunk build --release)")
    p.add_argument("--out", required=True, help="the folder to write")
    p.add_argument("bundles", nargs="*", help=".fonte bundles; the first is opened by default")
    a = p.parse_args()
    if not os.path.isfile(os.path.join(a.app, "index.html")):
        sys.exit(f"{a.app}/index.html not found: build the app first (scripts/publish.sh does)")
    out = os.path.abspath(a.out)
    parent = os.path.dirname(out)
    os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".publish-", dir=parent)
    site = os.path.join(work, "site")
    shutil.copytree(a.app, site)
    names = []
    for b in a.bundles:
        name = os.path.basename(b)
        os.makedirs(os.path.join(site, "corpus"), exist_ok=True)
        shutil.copyfile(b, os.path.join(site, "corpus", name))
        names.append(f"corpus/{name}")

    index = os.path.join(site, "index.html")
    with open(index, encoding="utf-8") as f:
        page = f.read()
    metas = ['<meta name="fonte-offline" content="sw.js" />']
    if names:
        metas.append(f'<meta name="fonte-corpus" content="{names[0]}" />')
    with open(index, "w", encoding="utf-8") as f:
        f.write(page.replace("<head>", "<head>\n    " + "\n    ".join(metas), 1))
    # The policy as a meta element (frame-ancestors is ignored there, and said so on the
    # console, so it is left out); the inline script hashes are of the page as written.
    policy = "; ".join(x for x in csp(site).split("; ") if not x.startswith("frame-ancestors"))
    with open(index, encoding="utf-8") as f:
        page = f.read()
    with open(index, "w", encoding="utf-8") as f:
        f.write(page.replace(
            "<head>", f'<head>\n    <meta http-equiv="Content-Security-Policy" content="{policy}" />', 1))

    files = files_of(site)
    shell = [f for f in files if "/" not in f and f.endswith(SHELL_SUFFIXES)]
    shell += [f for f in files if f.startswith("snippets/")] + ["models/catalog.json"]
    version = hashlib.sha256(json.dumps(files).encode()).hexdigest()[:16]
    with open(os.path.join(HERE, "..", "public", "sw.js"), encoding="utf-8") as f:
        sw = f.read()
    sw = (sw.replace('"__VERSION__"', json.dumps(version))
            .replace("/*FILES*/ {}", json.dumps(files, indent=1))
            .replace("/*SHELL*/ []", json.dumps(shell)))
    with open(os.path.join(site, "sw.js"), "w", encoding="utf-8") as f:
        f.write(sw)

    old = None
    if os.path.exists(out):
        old = os.path.join(work, "old")
        os.rename(out, old)
    os.rename(site, out)
    shutil.rmtree(work)
    size = sum(os.path.getsize(os.path.join(out, f)) for f in files)
    print(f"published {out}: version {version}, {len(files)} files ({size / 1e6:.1f} MB)"
          + (f", opens {names[0]}" if names else ""))


if __name__ == "__main__":
    main()
