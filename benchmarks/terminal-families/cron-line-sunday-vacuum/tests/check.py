import csv
import io
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def read(path):
    """The file's text, or None when it is missing or not a regular file."""
    try:
        if not os.path.isfile(path) or os.path.islink(path):
            return None
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            return f.read()
    except OSError:
        return None


def lines(path):
    """The file's lines without their line ends (trailing empty lines dropped), or None."""
    text = read(path)
    if text is None:
        return None
    out = text.replace("\r\n", "\n").split("\n")
    while out and out[-1] == "":
        out.pop()
    return out


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def sh(command, cwd=None):
    """Run a verifier command (as root, not the agent's code); its stdout, stripped."""
    return subprocess.run(command, shell=True, capture_output=True, text=True, cwd=cwd).stdout.strip()


def staged(*paths):
    """Copies of the agent's files in a fresh directory nobody may write, readable by `nobody`."""
    where = tempfile.mkdtemp(prefix="verify-")
    os.chmod(where, 0o755)
    for path in paths:
        target = os.path.join(where, os.path.basename(path))
        shutil.copyfile(path, target)
        os.chmod(target, 0o755)
    return where


def run_as_nobody(argv, cwd="/tmp"):
    """Run the agent's program as user nobody, so it cannot touch the reward file; 10 s limit."""
    try:
        return subprocess.run(["runuser", "-u", "nobody", "--", *argv], capture_output=True, text=True,
                              cwd=cwd, timeout=10)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(argv, 124, "", "timed out")


def query(db, sql):
    """Rows of a query on an sqlite database (the verifier's own connection), or None on error."""
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute(sql).fetchall()
    except sqlite3.Error:
        return None


RANGES = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]
NAMES = {3: {m: i + 1 for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split())},
         4: {d: i for i, d in enumerate("sun mon tue wed thu fri sat".split())}}


def value(text, i):
    if text.isdigit():
        return int(text)
    return NAMES.get(i, {})[text]


def expand(field, i):
    """The set of values a cron field stands for, or None when it does not parse."""
    lo, hi = RANGES[i]
    out = set()
    try:
        for part in field.lower().split(","):
            step, stepped = 1, "/" in part
            if stepped:
                part, s = part.split("/", 1)
                step = int(s)
                if step <= 0:
                    return None
            if part == "*":
                a, b = lo, hi
            elif "-" in part:
                a, b = (value(x, i) for x in part.split("-", 1))
            else:
                a = value(part, i)
                b = hi if stepped else a
            if a < lo or b > hi or a > b:
                return None
            out.update(range(a, b + 1, step))
    except (ValueError, KeyError):
        return None
    if i == 4:
        out = {0 if d == 7 else d for d in out}
    return out


def schedule(fields):
    return [expand(f, i) for i, f in enumerate(fields)]


def same_schedule(got, want):
    g, w = schedule(got), schedule(want)
    if None in g or g != w:
        return False
    # cron ORs day-of-month and day-of-week when both are restricted: an unrestricted one must be a '*'
    full_dom, full_dow = set(range(1, 32)), set(range(0, 7))
    if w[2] != full_dom or w[4] != full_dow:
        for i, full in ((2, full_dom), (4, full_dow)):
            if w[i] == full and not got[i].startswith("*"):
                return False
    return True


got = lines('/srv/cron.d/db-vacuum')
check(got is not None, "/srv/cron.d/db-vacuum exists")
rows = [ln for ln in (got or []) if ln.strip() and not ln.lstrip().startswith("#")]
print("lines:", rows)
check(len(rows) == 1, "it holds exactly one cron line")
if len(rows) == 1:
    f = rows[0].split()
    check(len(f) > 6, "the line has the schedule fields, the user and a command")
    if len(f) > 6:
        check(same_schedule(f[:5], ['10', '4', '*', '*', '0']), "the schedule is every Sunday at 04:10 (10 4 * * 0)")
        check(" ".join(f[6:]) == '/usr/local/bin/vacuum-db.sh', "the command is '/usr/local/bin/vacuum-db.sh'")
        check(f[5] == 'postgres', "it runs as user postgres")

sys.exit(1 if FAILS else 0)
