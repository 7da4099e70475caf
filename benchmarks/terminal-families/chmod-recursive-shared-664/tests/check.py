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


want_files = {'/home/team/shared/README.md': 0o664, '/home/team/shared/docs/plan.md': 0o664, '/home/team/shared/docs/specs/api.md': 0o664, '/home/team/shared/media/banner.png': 0o664}
want_dirs = {'/home/team/shared': 0o775, '/home/team/shared/docs': 0o770, '/home/team/shared/docs/specs': 0o775, '/home/team/shared/media': 0o770}
found_files, found_dirs = set(), set()
for base, dirs, names in os.walk('/home/team/shared'):
    found_dirs.add(base)
    found_files.update(os.path.join(base, n) for n in names)
check(found_files == set(want_files), f"the files are all still there (got {sorted(found_files)})")
for path, want in sorted(want_files.items()):
    got = mode(path) if os.path.isfile(path) else None
    check(got == want, f"file {path} has mode {oct(want)} (got {got if got is None else oct(got)})")
for path, want in sorted(want_dirs.items()):
    got = mode(path) if os.path.isdir(path) else None
    check(got == want, f"directory {path} has mode {oct(want)} (got {got if got is None else oct(got)})")

sys.exit(1 if FAILS else 0)
