#!/bin/bash
python3 - <<'P'
import csv, glob, gzip, json
from datetime import datetime, timezone
from decimal import Decimal


def parse_ts(v):
    if isinstance(v, bool):
        raise ValueError
    if isinstance(v, int):
        return datetime.fromtimestamp(v / 1000, tz=timezone.utc)
    if isinstance(v, str):
        t = datetime.fromisoformat(v.replace("Z", "+00:00"))
        if t.tzinfo is None:
            raise ValueError
        return t.astimezone(timezone.utc)
    raise ValueError


events, invalid, dups = {}, 0, 0
for path in sorted(glob.glob("/app/events/*.jsonl.gz")):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                ev = json.loads(line)
                if not isinstance(ev, dict) or not all(k in ev for k in ("event_id", "user", "type", "ts")):
                    raise ValueError
                ev["_t"] = parse_ts(ev["ts"])
            except ValueError:
                invalid += 1
                continue
            if ev["event_id"] in events:
                dups += 1
                continue
            events[ev["event_id"]] = ev

by_user = {}
for ev in events.values():
    by_user.setdefault(ev["user"], []).append(ev)
rows = []
for user in sorted(by_user):
    evs = sorted(by_user[user], key=lambda e: e["_t"])
    sessions = []
    for ev in evs:
        if sessions and (ev["_t"] - sessions[-1][-1]["_t"]).total_seconds() <= 1800:
            sessions[-1].append(ev)
        else:
            sessions.append([ev])
    for i, s in enumerate(sessions, 1):
        fmt = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
        purchases = [e for e in s if e["type"] == "purchase"]
        revenue = sum((Decimal(str(e.get("amount", 0))) for e in purchases), Decimal("0"))
        rows.append([user, i, fmt(s[0]["_t"]), fmt(s[-1]["_t"]), len(s), len(purchases), f"{revenue:.2f}"])
with open("/app/sessions.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["user", "session", "start", "end", "events", "purchases", "revenue"])
    w.writerows(rows)
json.dump({"valid_events": len(events), "duplicates": dups, "invalid_lines": invalid, "users": len(by_user),
           "sessions": len(rows)}, open("/app/summary.json", "w"), indent=2)
P
