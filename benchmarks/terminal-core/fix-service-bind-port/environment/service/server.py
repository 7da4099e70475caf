"""Tiny inventory status service."""
import argparse
import json
from http.server import BaseHTTPRequestHandler, HTTPServer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/status":
                body = json.dumps({"service": cfg["name"], "ok": True}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
            else:
                body = b'{"error": "not found"}'
                self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, fmt, *a):
            pass

    server = HTTPServer((cfg["host"], int(cfg["port"])), Handler)
    print(f"listening on {cfg['host']}:{cfg['port']}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
