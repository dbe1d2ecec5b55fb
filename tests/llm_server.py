#!/usr/bin/env python3
"""A scripted LLM endpoint for the tests (never part of the app).

It replays, per script name in the path (`/<script>/v1/chat/completions`, `/<script>/v1/messages`
or `/<script>/v1/models`), what a real server will not do on demand: a normal stream, invalid
citations, HTML and `javascript:` links in the answer, the abstention sentence, a 429 with
Retry-After, a stream cut mid-way, a 401, a redirect (307), an Anthropic-format stream, a stall, a translation of the question then an answer. It answers CORS
preflights for any origin (the browser tests' page comes from the test runner's origin) and
exposes Retry-After. Every request body is kept and listed at `/requests` (JSON), so a test can
assert on what was sent, or that nothing was.

Usage: tests/llm_server.py [--port 0]; prints "serving http://127.0.0.1:PORT/" once listening.
"""
import argparse
import http.server
import json
import threading
import time

REQUESTS = []
LOCK = threading.Lock()


def openai_chunks(texts, done=True):
    out = [f"data: {json.dumps({'choices': [{'index': 0, 'delta': {'content': t}}]})}\n\n" for t in texts]
    if done:
        out.append(f"data: {json.dumps({'choices': [{'index': 0, 'delta': {}, 'finish_reason': 'stop'}]})}\n\n")
        out.append("data: [DONE]\n\n")
    return out


def anthropic_chunks(texts):
    def event(kind, data):
        return f"event: {kind}\r\ndata: {json.dumps(data)}\r\n\r\n"

    out = [event("message_start", {"type": "message_start", "message": {"id": "m1"}}),
           event("content_block_start", {"type": "content_block_start", "index": 0,
                                         "content_block": {"type": "text", "text": ""}}),
           event("ping", {"type": "ping"})]
    out += [event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                          "delta": {"type": "text_delta", "text": t}}) for t in texts]
    out += [event("content_block_stop", {"type": "content_block_stop", "index": 0}),
            event("message_stop", {"type": "message_stop"})]
    return out


# script -> (status, extra headers, body pieces, seconds between pieces)
SCRIPTS = {
    "ok": (200, {}, openai_chunks(["The answer ", "is in the sources [1]."]), 0.02),
    # A moved endpoint: a redirect to the "ok" script, which a client must not follow.
    "redirect": (307, {"Location": "/ok/v1/chat/completions"}, [""], 0),
    "invalid-citations": (200, {}, openai_chunks(["Supported [1]. ", "Invented [7]. ", "Also [0]."]), 0.02),
    "hostile": (200, {}, openai_chunks([
        "<script>window.__pwned = 1</script> Click ",
        "[here](javascript:window.__pwned=2) <img src=x onerror=\"window.__pwned=3\"> [1]."]), 0.02),
    "abstain": (200, {}, openai_chunks(["The documents do not contain the answer."]), 0.02),
    "abstain-pt": (200, {}, openai_chunks(["Os documentos não contêm a resposta."]), 0.02),
    "rate-limited": (429, {"Retry-After": "17", "Content-Type": "application/json"},
                     [json.dumps({"error": {"message": "Rate limit reached"}})], 0),
    "unauthorized": (401, {"Content-Type": "application/json"},
                     [json.dumps({"error": {"message": "Invalid API key"}})], 0),
    "cut": (200, {}, openai_chunks(["This answer stops ", "mid-"], done=False), 0.02),
    "anthropic": (200, {}, anthropic_chunks(["From Anthropic's ", "stream [1]."]), 0.02),
    "slow": (200, {}, openai_chunks(["slow ", "answer ", "that ", "takes ", "long [1]."]), 1.0),
    "translating": (200, {}, openai_chunks(["The answer ", "is in the sources [1]."]), 0.02),
    # The same, its translations a piece a second (long enough to stop one).
    "translating-slow": (200, {}, openai_chunks(["The answer ", "is in the sources [1]."]), 0.02),
}

# What "translating" replies to a request for a translation (crates/fonte-core/src/answer/translate.rs).
TRANSLATION = openai_chunks(["Translation: ", "Who are the crazy ones, the misfits and the rebels?"])


def asks_translation(body):
    try:
        messages = json.loads(body).get("messages") or []
    except ValueError:
        return False
    return bool(messages) and "Translate the user's search question" in str(messages[0].get("content"))

MODELS = {"object": "list", "data": [{"id": "scripted-model", "object": "model"}]}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def cors(self):
        self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
        # Echoed, not "*": a wildcard does not cover Authorization.
        self.send_header("Access-Control-Allow-Headers",
                         self.headers.get("Access-Control-Request-Headers") or "content-type")
        self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        self.send_header("Access-Control-Expose-Headers", "Retry-After")

    def log_message(self, *args):
        pass

    def do_OPTIONS(self):
        self.send_response(204)
        self.cors()
        self.send_header("Content-Length", "0")
        self.end_headers()

    def reply(self, status, headers, body):
        self.send_response(status)
        self.cors()
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/requests":
            with LOCK:
                body = json.dumps(REQUESTS).encode()
            return self.reply(200, {"Content-Type": "application/json"}, body)
        if self.path.endswith("/v1/models"):
            return self.reply(200, {"Content-Type": "application/json"}, json.dumps(MODELS).encode())
        self.reply(404, {"Content-Type": "application/json"}, b'{"error":{"message":"no such path"}}')

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace")
        script = self.path.strip("/").split("/")[0]
        with LOCK:
            REQUESTS.append({"path": self.path, "script": script, "body": body,
                             "headers": {k.lower(): v for k, v in self.headers.items()}})
        if script not in SCRIPTS:
            return self.reply(404, {"Content-Type": "application/json"}, b'{"error":{"message":"model not found"}}')
        status, headers, pieces, pause = SCRIPTS[script]
        if script.startswith("translating") and asks_translation(body):
            pieces = TRANSLATION
            pause = 1.0 if script == "translating-slow" else pause
        if status != 200:
            return self.reply(status, headers, "".join(pieces).encode())
        self.send_response(200)
        self.cors()
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            for p in pieces:
                self.wfile.write(p.encode())
                self.wfile.flush()
                time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped (the stop button)
        self.close_connection = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"serving http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
