#!/usr/bin/env python3
"""Serve a folder on loopback for the app and the tests.

Why not `python3 -m http.server`: it lacks the `.mjs`/`.wasm` types onnxruntime-web needs, CORS
for the browser tests (their page comes from the test runner's own origin), the optional
COOP/COEP headers that let onnxruntime-web use threads, and the security headers below.

Every response carries a strict Content-Security-Policy (see `csp()`; docs/RELIABILITY.md says
how to send the same from any static host) and `X-Content-Type-Options: nosniff`.
"""
import argparse
import base64
import functools
import hashlib
import http.server
import mimetypes
import os
import re

mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")


def inline_script_hashes(index_html):
    """CSP hashes of the page's inline scripts (Trunk's bootstrap, which imports the app)."""
    try:
        with open(index_html, encoding="utf-8") as f:
            page = f.read()
    except OSError:
        return []
    scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", page, flags=re.S)
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in scripts
        if s.strip()
    ]


# Where the page may send requests besides its own origin: the LLM endpoint the user types in
# the settings can be anywhere (a local server, a hosted API), so by default any http(s)
# address. The app itself requests nothing but its origin (tests/e2e/privacy.test.mjs); a
# publisher who knows the endpoint narrows this with --connect (docs/ENDPOINTS.md).
ANY_ENDPOINT = "http: https:"


def csp(directory, connect=ANY_ENDPOINT):
    """The policy: code only from this origin (plus the bootstrap's hash and WebAssembly
    compilation), workers only from it and from blob: URLs (wllama, the model that runs in the
    page, assembles its worker's code at run time from its own same-origin module), requests to
    it and to `connect` (the LLM endpoints), no plugins, no <base>, no framing.
    Styles only from this origin: the app writes no style attribute or element, and pdf.js
    (which draws pages into a canvas, no text layer) loads fonts with the FontFace API and
    sizes the canvas through CSSOM, neither of which style-src governs. Images and fonts may
    also be data:/blob: URLs (pdf.js renders into them)."""
    hashes = " ".join(inline_script_hashes(os.path.join(directory, "index.html")))
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' 'wasm-unsafe-eval' {hashes}".strip(),
            "worker-src 'self' blob:",
            f"connect-src 'self' {connect}".strip(),
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            "style-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
            "form-action 'none'",
        ]
    )


class Handler(http.server.SimpleHTTPRequestHandler):
    cors = False
    isolate = False
    policy = True
    connect = ANY_ENDPOINT

    def end_headers(self):
        if self.policy:
            self.send_header("Content-Security-Policy", csp(self.directory, self.connect))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
        if self.cors:
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
            # A cross-origin page reads Content-Range (hosted bundles by range requests).
            self.send_header("Access-Control-Expose-Headers", "Content-Range, Content-Length")
        if self.isolate:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        """Single byte ranges (`Range: bytes=a-b`), as static hosts serve them: a hosted bundle
        is read by range requests (docs/BUNDLE.md). Anything else is served whole."""
        self.range_left = None
        m = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", "").strip())
        path = self.translate_path(self.path)
        if not m or not os.path.isfile(path):
            return super().send_head()
        size = os.path.getsize(path)
        start = int(m.group(1))
        end = min(int(m.group(2)) if m.group(2) else size - 1, size - 1)
        if start > end:
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{size}")
            self.end_headers()
            return None
        f = open(path, "rb")
        f.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self.range_left = end - start + 1
        return f

    def copyfile(self, source, outputfile):
        left = getattr(self, "range_left", None)
        if left is None:
            return super().copyfile(source, outputfile)
        while left > 0:
            buf = source.read(min(left, 64 * 1024))
            if not buf:
                break
            outputfile.write(buf)
            left -= len(buf)

    def log_message(self, fmt, *args):
        if not self.server.quiet:
            super().log_message(fmt, *args)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--directory", required=True)
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--bind", default="127.0.0.1")
    p.add_argument("--cors", action="store_true", help="allow any origin (browser tests)")
    p.add_argument("--isolate", action="store_true", help="send COOP/COEP (threads)")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--no-csp", action="store_true", help="omit the security headers")
    p.add_argument("--print-csp", action="store_true", help="print the policy for --directory and exit")
    p.add_argument("--connect", default=ANY_ENDPOINT,
                   help="origins the page may send requests to besides its own (the LLM endpoints), "
                        "space-separated; default: any http(s) address")
    a = p.parse_args()
    if a.print_csp:
        print(csp(a.directory, a.connect))
        return
    Handler.policy = not a.no_csp
    Handler.cors = a.cors
    Handler.isolate = a.isolate
    Handler.connect = a.connect
    handler = functools.partial(Handler, directory=a.directory)
    server = http.server.ThreadingHTTPServer((a.bind, a.port), handler)
    server.quiet = a.quiet
    # With --port 0 the OS picks a free port; tests read it from this line.
    print(f"serving {a.directory} on http://{a.bind}:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
