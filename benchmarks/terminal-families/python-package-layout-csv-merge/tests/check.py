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


import tomllib

text = read('/data/pkg/csv-merge/pyproject.toml')
check(text is not None, "/data/pkg/csv-merge/pyproject.toml exists")
try:
    meta = tomllib.loads(text or "").get("project", {})
except tomllib.TOMLDecodeError as e:
    print("pyproject.toml does not parse:", e)
    meta = {}
check(meta.get("name") == 'csv-merge', f"[project] name is 'csv-merge' (got {meta.get('name')!r})")
check(meta.get("version") == '0.12.0', f"[project] version is '0.12.0' (got {meta.get('version')!r})")
check(read('/data/pkg/csv-merge/csv_merge/__init__.py') is not None, "/data/pkg/csv-merge/csv_merge/__init__.py exists")
if os.path.isdir('/data/pkg/csv-merge'):
    where = tempfile.mkdtemp(prefix="verify-")
    os.chmod(where, 0o755)
    copy = os.path.join(where, "project")
    shutil.copytree('/data/pkg/csv-merge', copy, symlinks=True)
    for top, dirs, files in os.walk(copy):
        os.chmod(top, 0o755)
        for fname in files:
            if not os.path.islink(os.path.join(top, fname)):
                os.chmod(os.path.join(top, fname), 0o644)
    path = os.path.join(copy, "src") if False else copy
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import csv_merge; "
            "print(csv_merge.__version__); print(csv_merge.__file__)")
    r = run_as_nobody(["python3", "-I", "-B", "-c", code, path])
    print("import:", r.returncode, repr(r.stdout), r.stderr[-400:])
    out = r.stdout.splitlines()
    check(r.returncode == 0 and len(out) == 2 and out[0] == '0.12.0'
          and out[1].startswith(path + "/csv_merge/"),
          "import csv_merge from the project gives __version__ '0.12.0'")

sys.exit(1 if FAILS else 0)
