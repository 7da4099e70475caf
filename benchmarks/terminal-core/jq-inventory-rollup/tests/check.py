import json
import os
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


EXPECTED = [
    {"sku": "BOLT-M4", "total_qty": 126, "warehouses": ["WH-BREMEN", "WH-GDANSK", "WH-LYON"]},
    {"sku": "BOLT-M6", "total_qty": 23, "warehouses": ["WH-BREMEN", "WH-GDANSK", "WH-PORTO"]},
    {"sku": "CLIP-X", "total_qty": 158, "warehouses": ["WH-BREMEN", "WH-GDANSK", "WH-LYON", "WH-PORTO"]},
    {"sku": "GEAR-12", "total_qty": 1, "warehouses": ["WH-LYON"]},
    {"sku": "GEAR-24", "total_qty": 29, "warehouses": ["WH-BREMEN", "WH-GDANSK"]},
    {"sku": "HINGE-S", "total_qty": 18, "warehouses": ["WH-BREMEN", "WH-LYON", "WH-PORTO"]},
    {"sku": "NUT-M4", "total_qty": 105, "warehouses": ["WH-LYON"]},
    {"sku": "NUT-M6", "total_qty": 119, "warehouses": ["WH-GDANSK", "WH-LYON"]},
    {"sku": "SPRING-2", "total_qty": 240, "warehouses": ["WH-BREMEN", "WH-LYON"]},
    {"sku": "WASHER-8", "total_qty": 106, "warehouses": ["WH-GDANSK", "WH-LYON"]},
]
out = "/app/stock.json"
check(os.path.isfile(out), f"{out} exists")
try:
    got = json.load(open(out))
except Exception as exc:  # noqa: BLE001
    check(False, f"stock.json is valid JSON: {exc}")
    sys.exit(1)
check(isinstance(got, list), "top level is an array")
if isinstance(got, list):
    skus = [g.get("sku") if isinstance(g, dict) else None for g in got]
    check(skus == [e["sku"] for e in EXPECTED], f"the right SKUs in the right order (got {skus})")
    for e in EXPECTED:
        g = next((x for x in got if isinstance(x, dict) and x.get("sku") == e["sku"]), None)
        if g is None:
            continue
        check(set(g) == {"sku", "total_qty", "warehouses"}, f"{e['sku']}: exactly the keys sku,total_qty,warehouses")
        check(g.get("total_qty") == e["total_qty"] and type(g.get("total_qty")) is int,
              f"{e['sku']}: total_qty {e['total_qty']} (got {g.get('total_qty')!r})")
        check(g.get("warehouses") == e["warehouses"],
              f"{e['sku']}: warehouses {e['warehouses']} (got {g.get('warehouses')})")
sys.exit(1 if FAILS else 0)
