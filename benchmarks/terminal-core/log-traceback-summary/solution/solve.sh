#!/bin/bash
python3 - <<'P'
import json, re
rec = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) ")
frame = re.compile(r'^\s+File "([^"]+)", line (\d+)')
blocks, cur = [], None
for line in open("/app/logs/app.log", encoding="utf-8"):
    line = line.rstrip("\n")
    m = rec.match(line)
    if m:
        cur = {"ts": m.group(1), "lines": []}
        blocks.append(cur)
    elif cur is not None:
        cur["lines"].append(line)
summary = {}
for b in blocks:
    body = b["lines"]
    if not any(l.startswith("Traceback (most recent call last):") for l in body):
        continue
    frames = [frame.match(l) for l in body]
    frames = [f for f in frames if f]
    final = [l for l in body if l and not l.startswith(" ") and not l.startswith("Traceback")
             and not l.startswith("During handling") and not l.startswith("The above exception")][-1]
    name = final.split(":", 1)[0]
    e = summary.setdefault(name, {"exception": name, "count": 0, "first_seen": b["ts"]})
    e["count"] += 1
    e["last_frame"] = f"{frames[-1].group(1)}:{frames[-1].group(2)}"
out = sorted(summary.values(), key=lambda e: (-e["count"], e["exception"]))
json.dump(out, open("/app/exception_summary.json", "w"), indent=2)
P
