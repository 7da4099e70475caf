#!/bin/bash
cat > /app/jwtcheck.py <<'P'
import base64
import hashlib
import hmac
import json
import re
import sys

B64URL = re.compile(r"^[A-Za-z0-9_-]*$")


def b64decode(part):
    if not B64URL.match(part) or len(part) % 4 == 1:
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check(token, keys, now):
    parts = token.split(".")
    if len(parts) != 3:
        return "malformed", None
    h, p, s = parts
    try:
        header = json.loads(b64decode(h).decode("utf-8"))
        payload = json.loads(b64decode(p).decode("utf-8"))
        sig = b64decode(s)
    except (ValueError, UnicodeDecodeError):
        return "malformed", None
    if not isinstance(header, dict) or not isinstance(payload, dict):
        return "malformed", None
    if not is_int(payload.get("exp")) or ("nbf" in payload and not is_int(payload["nbf"])):
        return "malformed", None
    if header.get("alg") != "HS256":
        return "bad_alg", None
    kid = header.get("kid")
    if not isinstance(kid, str) or kid not in keys:
        return "unknown_kid", None
    want = hmac.new(keys[kid].encode(), f"{h}.{p}".encode("ascii"), hashlib.sha256).digest()
    if not hmac.compare_digest(want, sig) or s != base64.urlsafe_b64encode(sig).rstrip(b"=").decode():
        return "bad_signature", None
    if payload["exp"] <= now:
        return "expired", None
    if "nbf" in payload and payload["nbf"] > now:
        return "not_yet_valid", None
    if payload.get("iss") != "https://auth.example.com":
        return "bad_issuer", None
    aud = payload.get("aud")
    if not (aud == "billing-api" or (isinstance(aud, list) and "billing-api" in aud)):
        return "bad_audience", None
    return "ok", payload.get("sub")


def main():
    tokens_file, keys_file, now = sys.argv[1], sys.argv[2], int(sys.argv[3])
    keys = json.load(open(keys_file))
    out = []
    for i, line in enumerate(open(tokens_file, encoding="utf-8"), 1):
        tok = line.strip()
        if not tok:
            continue
        reason, sub = check(tok, keys, now)
        out.append({"line": i, "valid": reason == "ok", "reason": reason, "sub": sub})
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
P
python3 /app/jwtcheck.py /app/tokens.txt /app/keys.json 1717200000 > /app/token_report.json
