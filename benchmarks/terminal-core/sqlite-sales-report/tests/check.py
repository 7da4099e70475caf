import os
import sqlite3
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


EXPECTED = [
    "region,orders,revenue",
    "North,110,21125.54",
    "West,104,20308.58",
    "Central,109,17951.92",
    "South,81,15116.90",
    "East,78,14590.38",
]
out = "/app/region_report.csv"
check(os.path.isfile(out), f"{out} exists")
if os.path.isfile(out):
    lines = [ln.rstrip("\r") for ln in open(out).read().splitlines() if ln.strip()]
    print("got:", lines)
    check(lines[:1] == EXPECTED[:1], "header line")
    check(lines == EXPECTED, "rows match the expected report exactly")

db = sqlite3.connect("file:/app/sales.db?mode=ro", uri=True)
n_orders = db.execute("SELECT COUNT(*), SUM(id) FROM orders").fetchone()
n_items = db.execute("SELECT COUNT(*), SUM(qty * unit_price_cents) FROM order_items").fetchone()
check(n_orders == (903, 903 * 904 // 2), f"orders table unchanged {n_orders}")
check(n_items == (2246, 16222097), f"order_items table unchanged {n_items}")
sys.exit(1 if FAILS else 0)
