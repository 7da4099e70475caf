#!/bin/bash
mkdir -p /app/data
cat > /app/notes_server.py <<'P'
import json
import os
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DB = "/app/data/notes.json"
LOCK = threading.Lock()


def load():
    try:
        with open(DB) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"next_id": 1, "notes": []}


def save(state):
    tmp = DB + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f)
    os.replace(tmp, DB)


STATE = load()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def send(self, code, obj=None):
        body = b"" if obj is None else json.dumps(obj).encode()
        self.send_response(code)
        if obj is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def note_id(self):
        m = re.fullmatch(r"/notes/(\d+)", self.path)
        return int(m.group(1)) if m else None

    def do_GET(self):
        if self.path == "/health":
            return self.send(200, {"status": "ok"})
        if self.path == "/notes":
            with LOCK:
                return self.send(200, sorted(STATE["notes"], key=lambda n: n["id"]))
        nid = self.note_id()
        if nid is not None:
            with LOCK:
                for n in STATE["notes"]:
                    if n["id"] == nid:
                        return self.send(200, n)
        return self.send(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path != "/notes":
            return self.send(404, {"error": "not found"})
        try:
            data = json.loads(raw)
        except ValueError:
            return self.send(400, {"error": "body is not valid JSON"})
        if not isinstance(data, dict) or not isinstance(data.get("text"), str) or not data["text"]:
            return self.send(400, {"error": "expected an object with a non-empty string 'text'"})
        with LOCK:
            note = {"id": STATE["next_id"], "text": data["text"]}
            STATE["next_id"] += 1
            STATE["notes"].append(note)
            save(STATE)
        return self.send(201, note)

    def do_DELETE(self):
        nid = self.note_id()
        if nid is not None:
            with LOCK:
                for i, n in enumerate(STATE["notes"]):
                    if n["id"] == nid:
                        del STATE["notes"][i]
                        save(STATE)
                        return self.send(204)
        return self.send(404, {"error": "not found"})

    def do_PUT(self):
        self.send(404, {"error": "not found"})

    do_PATCH = do_PUT

    def log_message(self, *a):
        pass


ThreadingHTTPServer(("127.0.0.1", 8080), Handler).serve_forever()
P
cat > /app/serve.sh <<'S'
#!/bin/bash
exec python3 /app/notes_server.py
S
chmod +x /app/serve.sh
