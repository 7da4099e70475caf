#!/bin/bash
python3 - <<'P'
import csv
from datetime import datetime, timezone

best = {}
with open("/app/orders.csv", newline="", encoding="utf-8") as f:
    for idx, row in enumerate(csv.DictReader(f)):
        ts = datetime.fromisoformat(row["updated_at"].replace("Z", "+00:00"))
        key = (ts, idx)
        if row["order_id"] not in best or key >= best[row["order_id"]][0]:
            best[row["order_id"]] = (key, row)
with open("/app/orders_clean.csv", "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["order_id", "customer", "email", "amount", "updated_at"])
    for oid in sorted(best, key=int):
        (ts, _), r = best[oid]
        w.writerow([oid, r["customer"], r["email"].strip().lower(), f"{float(r['amount']):.2f}",
                    ts.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")])
P
