import os
import subprocess
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


ENV = dict(os.environ, PYTHONPATH="/app/src")
ENV.pop("PYTHONSAFEPATH", None)


def py(*args, cwd="/"):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=ENV, timeout=60)


EXPECTED = (
    "SKU      NAME                   QTY        VALUE\n"
    "D500     Motor 12V                3   449.97 EUR\n"
    "B300     Gear 24T                12   226.80 EUR\n"
    "A200     Hinge small             40    94.00 EUR\n"
    "C400     Spring                1000    45.00 EUR\n"
    "A100     Bolt M4                250    30.00 EUR\n"
    "TOTAL                                 845.77 EUR\n"
)

r = py("-c", "import inventory; print(inventory.Item.__name__, inventory.load_items.__name__, inventory.render.__name__)")
check(r.returncode == 0 and r.stdout.split() == ["Item", "load_items", "render"], f"import inventory from / ({r.stderr[-300:]})")
r = py("-m", "inventory", "report", "/app/data/items.csv")
check(r.returncode == 0 and r.stdout == EXPECTED, f"python3 -m inventory report from / (rc={r.returncode}, {r.stderr[-300:]!r}, {r.stdout!r})")
r = py("-m", "inventory", "report", "/app/data/items.csv", cwd="/app/src")
check(r.returncode == 0 and r.stdout == EXPECTED, "python3 -m inventory report from /app/src")
r = py("-m", "inventory", "report", "items.csv", cwd="/app/data")
check(r.returncode == 0 and r.stdout == EXPECTED, "relative CSV path from /app/data")

# library use with other data
csv_path = "/tmp/other_items.csv"
with open(csv_path, "w") as f:
    f.write("sku,name,qty,unit_price\nZ1,Widget,3,1000.005\nZ2,Thing,0,5\n")
code = ("from inventory import load_items, render, Item\n"
        "items = load_items('/tmp/other_items.csv')\n"
        "assert all(isinstance(i, Item) for i in items)\n"
        "print(render(items), end='')\n")
r = py("-c", code)
want = ("SKU      NAME                   QTY        VALUE\n"
        "Z1       Widget                   3 3,000.02 EUR\n"
        "Z2       Thing                    0     0.00 EUR\n"
        "TOTAL                               3,000.02 EUR\n")
check(r.returncode == 0 and r.stdout == want, f"library API on other data ({r.stdout!r} {r.stderr[-300:]!r})")
r = py("-c", "import inventory.report, inventory.models, inventory.utils, inventory.cli")
check(r.returncode == 0, "every module imports on its own")
r = py("-m", "inventory")
check(r.returncode != 0 and "usage" in (r.stderr + r.stdout).lower(), "no subcommand -> usage error")
for m in ("models.py", "report.py", "utils.py", "cli.py"):
    check(os.path.isfile(f"/app/src/inventory/{m}"), f"{m} kept")
sys.exit(1 if FAILS else 0)
