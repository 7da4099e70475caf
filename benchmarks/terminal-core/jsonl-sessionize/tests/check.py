import csv
import glob
import gzip
import json
import os
import sys
from datetime import datetime, timedelta, timezone
from decimal import Decimal

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def to_dt(v):
    if type(v) is int:
        return datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(milliseconds=v)
    if type(v) is str and (v.endswith("Z") or v[-6] in "+-"):
        return datetime.fromisoformat(v[:-1] + "+00:00" if v.endswith("Z") else v).astimezone(timezone.utc)
    raise ValueError(v)


def reference():
    seen, invalid, dups = {}, 0, 0
    for path in sorted(glob.glob("/tests/events/*.jsonl.gz")):
        for line in gzip.open(path, "rt", encoding="utf-8"):
            if not line.strip():
                continue
            try:
                ev = json.loads(line)
                assert isinstance(ev, dict) and {"event_id", "user", "type", "ts"} <= set(ev)
                t = to_dt(ev["ts"])
            except (ValueError, AssertionError):
                invalid += 1
                continue
            if ev["event_id"] in seen:
                dups += 1
            else:
                seen[ev["event_id"]] = (t, ev)
    users = {}
    for t, ev in seen.values():
        users.setdefault(ev["user"], []).append((t, ev))
    rows = []
    for u in sorted(users):
        evs = sorted(users[u], key=lambda x: x[0])
        groups = [[evs[0]]]
        for prev, cur in zip(evs, evs[1:]):
            if cur[0] - prev[0] > timedelta(minutes=30):
                groups.append([])
            groups[-1].append(cur)
        for i, g in enumerate(groups, 1):
            iso = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"  # noqa: E731
            pur = [e for _, e in g if e["type"] == "purchase"]
            rev = sum(Decimal(str(e["amount"])) for e in pur) if pur else Decimal(0)
            rows.append([u, str(i), iso(g[0][0]), iso(g[-1][0]), str(len(g)), str(len(pur)), f"{rev:.2f}"])
    summary = {"valid_events": len(seen), "duplicates": dups, "invalid_lines": invalid, "users": len(users),
               "sessions": len(rows)}
    return rows, summary


want_rows, want_summary = reference()
print("expected summary:", want_summary)
p = "/app/sessions.csv"
check(os.path.isfile(p), "sessions.csv exists")
if os.path.isfile(p):
    got = list(csv.reader(open(p, newline="")))
    check(got[:1] == [["user", "session", "start", "end", "events", "purchases", "revenue"]], "header")
    body = [r for r in got[1:] if r]
    check(len(body) == len(want_rows), f"number of sessions ({len(body)} vs {len(want_rows)})")
    wrong = [(g, w) for g, w in zip(body, want_rows) if g != w]
    for g, w in wrong[:5]:
        print(f"   got  {g}\n   want {w}")
    check(not wrong and len(body) == len(want_rows), f"every session row correct ({len(wrong)} wrong)")
try:
    summ = json.load(open("/app/summary.json"))
except Exception as exc:  # noqa: BLE001
    summ = None
    print(exc)
check(summ == want_summary, f"summary.json ({summ})")
sys.exit(1 if FAILS else 0)
