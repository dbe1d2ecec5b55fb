#!/usr/bin/env python3
"""A scripted corpus server for the tests (never part of the app): one real bundle, served well
and in each of the ways a hostile or broken static host could serve it.

Paths (each on its own, any other path is a 404):
  /good.fonte         range requests answered as a static host does (206, Content-Range)
  /wrong-range.fonte  206 for another range than the one asked, of a huge file
  /beyond.fonte       206 with the right Content-Range, then more bytes than it says
  /whole-huge.fonte   200 (ranges ignored) declaring a 10 GiB body, then a trickle of it
  /error.fonte        500
  /drip.fonte         the right 206 headers, then one byte a second (never silent for long)
It allows any origin (CORS, with Range) and records every request's path, listed at
`/requests` (JSON), so a test can tell whether the page contacted it at all.

Usage: tests/corpus_server.py --bundle FILE [--port 0]; prints "serving http://127.0.0.1:PORT/".
"""
import argparse
import http.server
import json
import re
import threading
import time

REQUESTS = []
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    bundle = b""

    def log_message(self, *args):
        pass

    def cors(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Headers", "Range")
        self.send_header("Access-Control-Expose-Headers", "Content-Range, Content-Length")

    def do_OPTIONS(self):
        self.send_response(204)
        self.cors()
        self.end_headers()

    def asked(self):
        m = re.fullmatch(r"bytes=(\d+)-(\d+)", self.headers.get("Range", ""))
        if not m:
            return 0, len(self.bundle) - 1
        return int(m.group(1)), min(int(m.group(2)), len(self.bundle) - 1)

    def send(self, status, headers, body):
        self.send_response(status)
        self.cors()
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        if self.path == "/requests":
            with LOCK:
                body = json.dumps(REQUESTS).encode()
            return self.send(200, {"Content-Type": "application/json", "Content-Length": str(len(body))}, body)
        with LOCK:
            REQUESTS.append(self.path)
        first, last = self.asked()
        part = self.bundle[first:last + 1]
        total = len(self.bundle)
        self.close_connection = True
        if self.path == "/good.fonte":
            return self.send(206, {"Content-Range": f"bytes {first}-{last}/{total}",
                                   "Content-Length": str(len(part))}, part)
        if self.path == "/wrong-range.fonte":
            huge = 1 << 40
            return self.send(206, {"Content-Range": f"bytes 0-{huge - 2}/{huge}",
                                   "Connection": "close"}, part)
        if self.path == "/beyond.fonte":
            # No Content-Length: the body runs on past the range until the connection closes.
            return self.send(206, {"Content-Range": f"bytes {first}-{last}/{total}",
                                   "Connection": "close"}, part + b"\0" * 100_000)
        if self.path == "/whole-huge.fonte":
            return self.send(200, {"Content-Length": str(10 << 30)}, self.bundle[:1000])
        if self.path == "/drip.fonte":
            self.send_response(206)
            self.cors()
            self.send_header("Content-Range", f"bytes {first}-{last}/{total}")
            self.send_header("Content-Length", str(len(part)))
            self.end_headers()
            try:
                for i in range(len(part)):
                    self.wfile.write(part[i:i + 1])
                    self.wfile.flush()
                    time.sleep(1)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if self.path == "/error.fonte":
            return self.send(500, {"Content-Length": "0"}, b"")
        self.send(404, {"Content-Length": "0"}, b"")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bundle", required=True)
    p.add_argument("--port", type=int, default=0)
    a = p.parse_args()
    with open(a.bundle, "rb") as f:
        Handler.bundle = f.read()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    print(f"serving http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
