import calendar
import re
import subprocess
import sys
from datetime import date, datetime, timedelta

FAILS = []
TOOL = "/app/cronnext.py"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


# ---- independent reference -------------------------------------------------------------------
NAMES = [{}, {}, {}, {m.upper(): i + 1 for i, m in enumerate(calendar.month_abbr[1:])},
         {d: i for i, d in enumerate(["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"])}]
RANGES = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]
ITEM = re.compile(r"^(?:(\*)|([A-Za-z0-9]+)(?:-([A-Za-z0-9]+))?)(?:/(\d+))?$")


def ref_field(text, idx):
    lo, hi = RANGES[idx]

    def val(t):
        v = NAMES[idx].get(t.upper())
        if v is None:
            if not t.isdigit():
                raise ValueError(t)
            v = int(t)
        if not lo <= v <= hi:
            raise ValueError(t)
        return v

    vals = set()
    for item in text.split(","):
        m = ITEM.match(item)
        if not m:
            raise ValueError(item)
        star, a, b, step = m.groups()
        step = int(step) if step is not None else 1
        if step == 0:
            raise ValueError(item)
        if star:
            a, b = lo, hi
        elif b is not None:
            a, b = val(a), val(b)
            if a > b:
                raise ValueError(item)
        else:
            if m.group(4) is not None:
                raise ValueError(item)
            a = b = val(a)
        vals.update(range(a, b + 1, step))
    if idx == 4 and 7 in vals:
        vals = (vals - {7}) | {0}
    return vals


def reference(expr, start, count):
    macros = {"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
              "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *"}
    if expr.startswith("@"):
        expr = macros[expr]
    parts = expr.split(" ")
    if len(parts) != 5:
        raise ValueError("fields")
    mins, hours, doms, months, dows = (ref_field(p, i) for i, p in enumerate(parts))
    either = not parts[2].startswith("*") and not parts[4].startswith("*")
    res = []
    d = start.date()
    while len(res) < count:
        if d > start.date() + timedelta(days=8 * 366 + 2):
            raise ValueError("never")
        if d.month in months:
            a, b = d.day in doms, (d.weekday() + 1) % 7 in dows
            if (a or b) if either else (a and b):
                for h in sorted(hours):
                    for mi in sorted(mins):
                        t = datetime(d.year, d.month, d.day, h, mi)
                        if t > start and len(res) < count:
                            res.append(t.strftime("%Y-%m-%d %H:%M"))
        d += timedelta(days=1)
    return res


# ---- cases -------------------------------------------------------------------------------------
HAND = [
    (("*/20 9-10 * * MON-FRI", "2024-03-01 10:30", "3"), ["2024-03-01 10:40", "2024-03-04 09:00", "2024-03-04 09:20"]),
    (("0 0 29 2 *", "2024-03-01 00:00", "2"), ["2028-02-29 00:00", "2032-02-29 00:00"]),
    (("0 0 31 * *", "2024-01-31 00:00", "4"), ["2024-03-31 00:00", "2024-05-31 00:00", "2024-07-31 00:00", "2024-08-31 00:00"]),
    (("@hourly", "2024-12-31 23:59", "3"), ["2025-01-01 00:00", "2025-01-01 01:00", "2025-01-01 02:00"]),
    (("0 0 13 * FRI", "2024-09-10 00:00", "4"), ["2024-09-13 00:00", "2024-09-20 00:00", "2024-09-27 00:00", "2024-10-04 00:00"]),
    (("0 0 */10 * 1", "2024-01-01 00:00", "3"), ["2024-03-11 00:00", "2024-04-01 00:00", "2024-07-01 00:00"]),
]
VALID = [
    ("0 0 13 * FRI", "2024-09-01 00:00", 12),
    ("15,45 */6 1-7 * 1", "2024-01-01 00:00", 25),
    ("0 12 * JAN-MAR,oct SUN", "2024-01-01 00:00", 20),
    ("5-59/15 * * * *", "2024-02-28 23:50", 6),
    ("0 0 * * 7", "2024-06-01 00:00", 3),
    ("0 0 */10 * *", "2024-01-05 12:00", 8),
    ("0 0 */10 * 1", "2024-01-01 00:00", 4),
    ("59 23 31 12 *", "2024-12-31 23:59", 1),
    ("0 0 1 1 *", "2023-06-15 08:00", None),
    ("@weekly", "2024-02-27 10:00", 3),
    ("@monthly", "2024-01-31 23:59", 3),
    ("@yearly", "2024-01-01 00:00", 2),
    ("@annually", "2024-01-01 00:00", 1),
    ("@daily", "2024-02-28 00:00", 3),
    ("@midnight", "2024-02-28 00:01", 2),
    ("0,30 8-18/2 * mar-may,9 tue,thu", "2024-02-29 17:00", 15),
    ("1-3,58-59 0 1,15 * *", "2024-04-30 23:00", 12),
    ("0 0 1-7 * mon", "2024-05-01 00:00", 10),
    ("10 10 * * 0-2", "2024-03-09 11:00", 5),
    ("* * * * *", "2024-02-29 23:58", 4),
]
INVALID = [
    ("60 * * * *", "2024-01-01 00:00"), ("* * * *", "2024-01-01 00:00"), ("* * * * * *", "2024-01-01 00:00"),
    ("*/0 * * * *", "2024-01-01 00:00"), ("5/10 * * * *", "2024-01-01 00:00"), ("1-70 * * * *", "2024-01-01 00:00"),
    ("10-5 * * * *", "2024-01-01 00:00"), ("* * 0 * *", "2024-01-01 00:00"), ("* * * 13 *", "2024-01-01 00:00"),
    ("* * * * 8", "2024-01-01 00:00"), ("@reboot", "2024-01-01 00:00"), ("0 0 30 2 *", "2024-01-01 00:00"),
    ("0 0 31 4,6,9,11 *", "2024-01-01 00:00"), ("a * * * *", "2024-01-01 00:00"), ("1,,2 * * * *", "2024-01-01 00:00"),
    ("* * * * sat-sun", "2024-01-01 00:00"), ("* * * JANUARY *", "2024-01-01 00:00"),
    ("* * * * *", "2024-02-30 10:00"), ("* * * * *", "2024-01-01"),
]


def run(*args):
    try:
        r = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, timeout=30)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


for args, want in HAND:
    rc, out, err = run(*args)
    check(rc == 0 and out.split("\n")[:-1] == want, f"{args}: {want} (got rc={rc} {out.splitlines()} {err[-200:]!r})")

for expr, start, n in VALID:
    want = reference(expr, datetime.strptime(start, "%Y-%m-%d %H:%M"), n or 5)
    rc, out, err = run(expr, start, *([str(n)] if n else []))
    ok = rc == 0 and out.endswith("\n") and out.split("\n")[:-1] == want
    if not ok:
        print(f"   want {want}\n   got  rc={rc} {out.splitlines()} {err[-200:]!r}")
    check(ok, f"{expr!r} after {start} x{n or 5}")

for expr, start in INVALID:
    rc, out, err = run(expr, start, "3")
    check(rc == 2 and out == "" and err.strip() != "", f"invalid {expr!r} / {start!r}: exit 2, stderr only (rc={rc})")
for cnt in ("0", "-1", "x"):
    rc, out, err = run("* * * * *", "2024-01-01 00:00", cnt)
    check(rc == 2 and out == "", f"invalid COUNT {cnt!r}: exit 2")
sys.exit(1 if FAILS else 0)
