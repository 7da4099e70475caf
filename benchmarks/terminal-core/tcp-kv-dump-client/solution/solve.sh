#!/bin/bash
cat > /app/kvdump.py <<'P'
import argparse
import base64
import hashlib
import hmac
import json
import socket
import sys


class AuthError(Exception):
    pass


class Conn:
    def __init__(self, host, port, password):
        self.sock = socket.create_connection((host, port), timeout=10)
        self.f = self.sock.makefile("rb")
        self.used = 0
        hello = self.line()
        if not hello.startswith("+HELLO "):
            raise ConnectionError(f"bad greeting {hello!r}")
        nonce = hello.split()[-1]
        digest = hmac.new(password.encode(), nonce.encode(), hashlib.sha256).hexdigest()
        if self.cmd(f"AUTH {digest}") != "+OK":
            raise AuthError()

    def line(self):
        raw = self.f.readline()
        if not raw:
            raise ConnectionError("connection closed")
        return raw.rstrip(b"\r\n").decode()

    def bulk(self):
        head = self.line()
        if not head.startswith("$"):
            raise ConnectionError(f"expected bulk string, got {head!r}")
        n = int(head[1:])
        if n < 0:
            return None
        data = self.f.read(n + 2)
        return data[:n]

    def cmd(self, text):
        self.used += 1
        self.sock.sendall(text.encode() + b"\r\n")
        return None if text.startswith(("GET ", "SCAN ")) else self.line()

    def close(self):
        try:
            if self.used < 50:
                self.cmd("QUIT")
        except OSError:
            pass
        self.sock.close()


class Client:
    def __init__(self, host, port, password):
        self.args = (host, port, password)
        self.conn = None

    def ensure(self):
        # keep one command in reserve: AUTH counted as 1; stay below the 50 limit
        if self.conn is None or self.conn.used >= 48:
            if self.conn:
                self.conn.close()
            self.conn = Conn(*self.args)
        return self.conn

    def scan(self, cursor, match):
        c = self.ensure()
        c.cmd(f"SCAN {cursor} MATCH {match} COUNT 25")
        head = c.line()
        if not head.startswith("*"):
            raise ConnectionError(f"SCAN failed: {head!r}")
        nxt, k = head[1:].split()
        return nxt, [c.bulk().decode() for _ in range(int(k))]

    def get(self, key):
        c = self.ensure()
        c.cmd(f"GET {key}")
        return c.bulk()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--password", required=True)
    ap.add_argument("--match", default="*")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    cl = Client(a.host, a.port, a.password)
    try:
        keys, cursor = [], "0"
        seen = set()
        while True:
            cursor, page = cl.scan(cursor, a.match)
            for k in page:
                if k not in seen:
                    seen.add(k)
                    keys.append(k)
            if cursor == "0":
                break
        out = {}
        for k in keys:
            v = cl.get(k)
            if v is None:
                continue
            try:
                out[k] = v.decode("utf-8")
            except UnicodeDecodeError:
                out[k] = {"base64": base64.b64encode(v).decode()}
        cl.conn.close()
    except AuthError:
        print("authentication failed", file=sys.stderr)
        return 3
    except OSError as exc:
        print(f"cannot talk to server: {exc}", file=sys.stderr)
        return 4
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
P
