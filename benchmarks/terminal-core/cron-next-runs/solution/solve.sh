#!/bin/bash
cat > /app/cronnext.py <<'P'
import sys
from datetime import datetime, timedelta

MACROS = {"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
          "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *"}
MONTHS = {m: i for i, m in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split(), 1)}
DAYS = {d: i for i, d in enumerate("SUN MON TUE WED THU FRI SAT".split())}
FIELDS = [(0, 59, {}), (0, 23, {}), (1, 31, {}), (1, 12, MONTHS), (0, 7, DAYS)]


class CronError(ValueError):
    pass


def value(tok, lo, hi, names):
    if tok.upper() in names:
        return names[tok.upper()]
    if not tok.isdigit():
        raise CronError(f"bad value {tok!r}")
    v = int(tok)
    if not lo <= v <= hi:
        raise CronError(f"value {v} out of range {lo}-{hi}")
    return v


def parse_field(text, lo, hi, names):
    out = set()
    for item in text.split(","):
        base, _, step = item.partition("/")
        if step or "/" in item:
            if not step.isdigit() or int(step) == 0:
                raise CronError(f"bad step in {item!r}")
        st = int(step) if step else 1
        if base == "*":
            a, b = lo, hi
        elif "-" in base:
            x, _, y = base.partition("-")
            a, b = value(x, lo, hi, names), value(y, lo, hi, names)
            if a > b:
                raise CronError(f"bad range {base!r}")
        else:
            if step:
                raise CronError(f"step needs a range in {item!r}")
            a = b = value(base, lo, hi, names)
        out.update(range(a, b + 1, st))
    return out


def parse(expr):
    expr = MACROS.get(expr.strip().lower(), expr) if expr.strip().startswith("@") else expr
    if expr.startswith("@"):
        raise CronError(f"unknown macro {expr!r}")
    parts = expr.split()
    if len(parts) != 5:
        raise CronError("expected 5 fields")
    sets = [parse_field(p, *f) for p, f in zip(parts, FIELDS)]
    if 7 in sets[4]:
        sets[4] = (sets[4] - {7}) | {0}
    return sets, not parts[2].startswith("*"), not parts[4].startswith("*")


def day_ok(d, sets, dom_r, dow_r):
    if d.month not in sets[3]:
        return False
    dom = d.day in sets[2]
    dow = (d.isoweekday() % 7) in sets[4]
    return (dom or dow) if (dom_r and dow_r) else (dom and dow)


def next_runs(expr, start, count):
    sets, dom_r, dow_r = parse(expr)
    t = start + timedelta(minutes=1)
    limit = start + timedelta(days=366 * 8 + 2)
    out = []
    day = t.replace(hour=0, minute=0)
    while len(out) < count:
        if day > limit:
            raise CronError("expression never fires")
        if day_ok(day, sets, dom_r, dow_r):
            for h in sorted(sets[1]):
                for m in sorted(sets[0]):
                    cand = day.replace(hour=h, minute=m)
                    if cand >= t and len(out) < count:
                        out.append(cand)
        day += timedelta(days=1)
    return out


def main(argv):
    try:
        if len(argv) not in (2, 3):
            raise CronError("usage: cronnext.py EXPR START [COUNT]")
        try:
            start = datetime.strptime(argv[1], "%Y-%m-%d %H:%M")
        except ValueError:
            raise CronError(f"bad start {argv[1]!r}") from None
        count = 5
        if len(argv) == 3:
            if not argv[2].isdigit() or int(argv[2]) < 1:
                raise CronError(f"bad count {argv[2]!r}")
            count = int(argv[2])
        runs = next_runs(argv[0], start, count)
    except CronError as exc:
        print(f"cronnext: {exc}", file=sys.stderr)
        return 2
    print("\n".join(r.strftime("%Y-%m-%d %H:%M") for r in runs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
P
