import csv
import hashlib
import os
import sys
from datetime import datetime, timezone
from decimal import ROUND_HALF_UP, Decimal

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def parse_ts(s):
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    return datetime.fromisoformat(s)


def expected():
    rows = list(csv.reader(open("/tests/orders_original.csv", newline="", encoding="utf-8")))[1:]
    best = {}
    for idx, (oid, cust, email, amount, ts) in enumerate(rows):
        key = (parse_ts(ts), idx)
        if oid not in best or key > best[oid][0]:
            best[oid] = (key, [oid, cust, email, amount, ts])
    out = []
    for oid in sorted(best, key=int):
        (t, _), (_, cust, email, amount, _) = best[oid]
        amt = str(Decimal(amount).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
        out.append([oid, cust, email.strip().lower(), amt, t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")])
    return out


src_sha = hashlib.sha256(open("/app/orders.csv", "rb").read()).hexdigest()
orig_sha = hashlib.sha256(open("/tests/orders_original.csv", "rb").read()).hexdigest()
check(src_sha == orig_sha, "/app/orders.csv unchanged")

out = "/app/orders_clean.csv"
check(os.path.isfile(out), f"{out} exists")
if os.path.isfile(out):
    with open(out, newline="", encoding="utf-8") as f:
        got = [r for r in csv.reader(f) if r]
    check(got[:1] == [["order_id", "customer", "email", "amount", "updated_at"]], "header line")
    want = expected()
    body = got[1:]
    check(len(body) == len(want), f"one row per order_id ({len(body)} rows, expected {len(want)})")
    check([r[0] for r in body] == [r[0] for r in want], "rows sorted by numeric order_id")
    mism = [(g, w) for g, w in zip(body, want) if g != w]
    for g, w in mism[:5]:
        print("   got ", g, "\n   want", w)
    check(not mism and len(body) == len(want), f"every row has the right version and normalisation ({len(mism)} wrong)")
    tie = [r for r in body if r and r[0] == "1999"]
    check(len(tie) == 1 and tie[0] == [w for w in want if w[0] == "1999"][0], "same-instant tie resolved by file order")
sys.exit(1 if FAILS else 0)
