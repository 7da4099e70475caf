import json
import os
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


EXPECTED = [
    {"exception": "json.decoder.JSONDecodeError", "count": 22, "first_seen": "2024-06-01 08:21:09,737", "last_frame": "/srv/app/handlers.py:166"},
    {"exception": "requests.exceptions.ConnectionError", "count": 22, "first_seen": "2024-06-01 08:06:48,077", "last_frame": "/srv/app/util/parse.py:302"},
    {"exception": "app.errors.PaymentDeclined", "count": 20, "first_seen": "2024-06-01 08:14:14,477", "last_frame": "/srv/app/util/parse.py:192"},
    {"exception": "ValueError", "count": 15, "first_seen": "2024-06-01 08:05:12,734", "last_frame": "/srv/app/billing/client.py:286"},
    {"exception": "KeyError", "count": 9, "first_seen": "2024-06-01 08:03:17,879", "last_frame": "/srv/app/util/parse.py:23"},
    {"exception": "TimeoutError", "count": 9, "first_seen": "2024-06-01 08:12:14,788", "last_frame": "/srv/app/billing/client.py:196"},
]

out = "/app/exception_summary.json"
check(os.path.isfile(out), f"{out} exists")
try:
    got = json.load(open(out))
except Exception as exc:  # noqa: BLE001
    check(False, f"valid JSON: {exc}")
    sys.exit(1)
check(isinstance(got, list), "top level is an array")
if isinstance(got, list):
    names = [g.get("exception") if isinstance(g, dict) else None for g in got]
    check(names == [e["exception"] for e in EXPECTED], f"exception types and order (got {names})")
    for e in EXPECTED:
        g = next((x for x in got if isinstance(x, dict) and x.get("exception") == e["exception"]), None)
        if g is None:
            continue
        check(set(g) == set(e), f"{e['exception']}: exactly the keys {sorted(e)}")
        for k in ("count", "first_seen", "last_frame"):
            check(g.get(k) == e[k], f"{e['exception']}: {k} = {e[k]!r} (got {g.get(k)!r})")
sys.exit(1 if FAILS else 0)
