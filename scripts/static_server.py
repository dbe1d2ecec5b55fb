#!/usr/bin/env python3
"""Serve a folder on loopback for the app and the tests.

Why not `python3 -m http.server`: it lacks the `.mjs`/`.wasm` types onnxruntime-web needs, CORS
for the browser tests (their page comes from the test runner's own origin) and the optional
COOP/COEP headers that let onnxruntime-web use threads.
"""
import argparse
import functools
import http.server
import mimetypes

mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")


class Handler(http.server.SimpleHTTPRequestHandler):
    cors = False
    isolate = False

    def end_headers(self):
        if self.cors:
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
        if self.isolate:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

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
    a = p.parse_args()
    Handler.cors = a.cors
    Handler.isolate = a.isolate
    handler = functools.partial(Handler, directory=a.directory)
    server = http.server.ThreadingHTTPServer((a.bind, a.port), handler)
    server.quiet = a.quiet
    # With --port 0 the OS picks a free port; tests read it from this line.
    print(f"serving {a.directory} on http://{a.bind}:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
