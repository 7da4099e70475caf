import json
import os
import subprocess
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


PUBLIC_EXPECTED = [
    {'line': 1, 'valid': False, 'reason': 'expired', 'sub': None},
    {'line': 2, 'valid': False, 'reason': 'bad_issuer', 'sub': None},
    {'line': 3, 'valid': True, 'reason': 'ok', 'sub': 'user-812'},
    {'line': 4, 'valid': False, 'reason': 'malformed', 'sub': None},
    {'line': 5, 'valid': False, 'reason': 'bad_audience', 'sub': None},
    {'line': 6, 'valid': False, 'reason': 'malformed', 'sub': None},
    {'line': 7, 'valid': True, 'reason': 'ok', 'sub': 'user-583'},
    {'line': 8, 'valid': True, 'reason': 'ok', 'sub': 'user-955'},
    {'line': 9, 'valid': False, 'reason': 'not_yet_valid', 'sub': None},
    {'line': 10, 'valid': False, 'reason': 'unknown_kid', 'sub': None},
    {'line': 11, 'valid': False, 'reason': 'bad_signature', 'sub': None},
    {'line': 12, 'valid': False, 'reason': 'bad_alg', 'sub': None},
    {'line': 13, 'valid': False, 'reason': 'bad_signature', 'sub': None},
    {'line': 14, 'valid': False, 'reason': 'expired', 'sub': None},
    {'line': 15, 'valid': True, 'reason': 'ok', 'sub': 'user-682'},
]


def compare(got, want, label):
    if not isinstance(got, list):
        check(False, f"{label}: output is a JSON array")
        return
    check(len(got) == len(want), f"{label}: one entry per token ({len(got)} vs {len(want)})")
    wrong = [(w, g) for w, g in zip(want, got) if g != w]
    for w, g in wrong[:6]:
        print(f"   want {w}\n   got  {g}")
    check(not wrong, f"{label}: every token classified correctly ({len(wrong)} wrong)")


report = "/app/token_report.json"
try:
    compare(json.load(open(report)), PUBLIC_EXPECTED, "token_report.json")
except Exception as exc:  # noqa: BLE001
    check(False, f"token_report.json readable: {exc}")

tool = "/app/jwtcheck.py"
check(os.path.isfile(tool), "jwtcheck.py exists")
r = subprocess.run([sys.executable, tool, "/tests/hidden_tokens.txt", "/tests/hidden_keys.json", "1717200000"],
                   capture_output=True, text=True, timeout=60)
try:
    got = json.loads(r.stdout)
except ValueError:
    got = None
    print(r.stderr[-800:])
compare(got, json.load(open("/tests/hidden_expected.json")), "hidden tokens")

# a different clock and key set: everything that was ok is now expired; with no keys, kid checks fail
r = subprocess.run([sys.executable, tool, "/tests/hidden_tokens.txt", "/tests/hidden_keys.json", "1900000000"],
                   capture_output=True, text=True, timeout=60)
try:
    later = json.loads(r.stdout)
    base = json.load(open("/tests/hidden_expected.json"))
    want = [dict(e, valid=False, sub=None, reason="expired") if e["reason"] in (
        "ok", "not_yet_valid", "bad_issuer", "bad_audience") else e for e in base]
    compare(later, want, "hidden tokens, NOW=1900000000")
except ValueError:
    check(False, "tool output with another NOW is JSON")
with open("/tmp/other_keys.json", "w") as f:
    json.dump({"k2024a": "rotated-secret"}, f)
r = subprocess.run([sys.executable, tool, "/tests/hidden_tokens.txt", "/tmp/other_keys.json", "1717200000"],
                   capture_output=True, text=True, timeout=60)
try:
    other = json.loads(r.stdout)
    ok_reasons = {e["reason"] for e in other if isinstance(e, dict)}
    check(not any(e.get("valid") for e in other if isinstance(e, dict)) and "unknown_kid" in ok_reasons
          and "bad_signature" in ok_reasons, "keys come from KEYS_FILE (rotated keys invalidate everything)")
except ValueError:
    check(False, "tool output with other keys is JSON")
sys.exit(1 if FAILS else 0)
