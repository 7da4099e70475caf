import math
import subprocess
import sys

sys.path.insert(0, "/app/pager")
FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


try:
    from pagination import Page, paginate  # noqa: F401
except Exception as exc:  # noqa: BLE001
    check(False, f"import pagination: {exc!r}")
    sys.exit(1)

bad = []
for n in list(range(0, 40)) + [99, 100, 101]:
    data = [f"row{i}" for i in range(n)]
    for per in (1, 2, 3, 7, 10, 25, 100):
        total = max(1, math.ceil(n / per))
        for page in range(-1, total + 3):
            try:
                p = paginate(iter(data), page, per)
            except ValueError:
                if 1 <= page <= total:
                    bad.append(f"n={n} per={per} page={page}: unexpected ValueError")
                continue
            except Exception as exc:  # noqa: BLE001
                bad.append(f"n={n} per={per} page={page}: {exc!r}")
                continue
            if not 1 <= page <= total:
                bad.append(f"n={n} per={per} page={page}: expected ValueError")
                continue
            exp = data[(page - 1) * per: page * per]
            got = (list(p.items), p.number, p.total_pages, p.has_next, p.has_prev)
            want = (exp, page, total, page < total, page > 1)
            if got != want:
                bad.append(f"n={n} per={per} page={page}: got {got} want {want}")
for per in (0, -3):
    try:
        paginate([1, 2, 3], 1, per)
        bad.append(f"per_page={per}: expected ValueError")
    except ValueError:
        pass
print("\n".join(bad[:15]))
check(not bad, f"paginate matches the documented behaviour on all cases ({len(bad)} mismatches)")

r = subprocess.run([sys.executable, "-m", "unittest", "-q"], cwd="/app/pager", capture_output=True, text=True)
check(r.returncode == 0, "the project's own unittest suite passes")
sys.exit(1 if FAILS else 0)
