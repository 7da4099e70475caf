#!/usr/bin/env python3
"""kvd: a tiny key-value server speaking the line protocol described in /app/PROTOCOL.md."""
import argparse
import base64
import fnmatch
import hashlib
import hmac
import json
import os
import random
import socketserver

LIMIT = 50  # commands per connection


class Handler(socketserver.StreamRequestHandler):
    def w(self, s):
        self.wfile.write(s.encode() + b"\r\n")

    def blob(self, b):
        self.wfile.write(b"$%d\r\n" % len(b) + b + b"\r\n")

    def handle(self):
        srv = self.server
        nonce = os.urandom(8).hex()
        self.w(f"+HELLO kv/1.2 {nonce}")
        authed, n = False, 0
        while True:
            line = self.rfile.readline(4096)
            if not line:
                return
            n += 1
            if n > LIMIT:
                self.w("-ERR limit")
                return
            parts = line.decode("utf-8", "replace").strip().split()
            if not parts:
                self.w("-ERR empty command")
                continue
            cmd = parts[0].upper()
            if cmd == "QUIT":
                self.w("+BYE")
                return
            if cmd == "AUTH":
                want = hmac.new(srv.password, nonce.encode(), hashlib.sha256).hexdigest()
                if len(parts) == 2 and hmac.compare_digest(parts[1].lower(), want):
                    authed = True
                    self.w("+OK")
                    continue
                self.w("-ERR auth")
                return
            if not authed:
                self.w("-ERR noauth")
                continue
            if cmd == "SCAN":
                self.scan(parts[1:])
            elif cmd == "GET" and len(parts) == 2:
                key = parts[1]
                if key in srv.data and key not in srv.missing:
                    self.blob(srv.data[key])
                else:
                    self.w("$-1")
            else:
                self.w("-ERR unknown command")

    def scan(self, args):
        srv = self.server
        try:
            cursor = args[0]
            idx = 0 if cursor == "0" else (int(cursor, 16) - 17) // 7919
            opts = dict(zip([a.upper() for a in args[1::2]], args[2::2]))
            count = int(opts.get("COUNT", "10"))
            pattern = opts.get("MATCH", "*")
            if idx < 0 or idx > len(srv.order) or count < 1 or len(args) % 2 != 1:
                raise ValueError
        except (ValueError, IndexError):
            self.w("-ERR syntax")
            return
        page = srv.order[idx:idx + count]
        rng = random.Random(idx * 31 + count)
        if idx and rng.random() < 0.4:  # like Redis, a key may be returned more than once
            page = page + [srv.order[idx - 1]]
        keys = [k for k in page if fnmatch.fnmatchcase(k, pattern)]
        nxt = idx + count
        token = "0" if nxt >= len(srv.order) else format(nxt * 7919 + 17, "x")
        self.w(f"*{token} {len(keys)}")
        for k in keys:
            self.blob(k.encode())


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=7070)
    ap.add_argument("--password", default="secret")
    ap.add_argument("--data", default="/app/sample_data.json")
    args = ap.parse_args()
    spec = json.load(open(args.data))
    srv = Server(("127.0.0.1", args.port), Handler)
    srv.password = args.password.encode()
    srv.data = {k: base64.b64decode(v) for k, v in spec["values"].items()}
    srv.missing = set(spec.get("missing", []))
    srv.order = sorted(srv.data, key=lambda k: hashlib.sha256(k.encode()).hexdigest())
    print(f"kvd listening on 127.0.0.1:{args.port}", flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
