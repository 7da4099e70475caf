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


key, value, index = 'max_connections', '250', 3
rest = ['# tuned for 8 GB RAM', "listen_addresses = '*'", '#max_connections = 50', 'superuser_max_connections = 3', 'shared_buffers = 2GB', 'work_mem = 16MB']
got = lines('/etc/pgtune/custom.conf')
check(got is not None, "/etc/pgtune/custom.conf exists")
got = [line.rstrip() for line in got] if got is not None else []


def is_setting(line):
    s = line.strip()
    return not s.startswith(("#", ";")) and "=" in s and s.split("=", 1)[0].strip() == key


hits = [i for i, line in enumerate(got) if is_setting(line)]
check(len(hits) == 1, f"{key} is set on exactly one line (found {len(hits)})")
if len(hits) == 1:
    have = got[hits[0]].split("=", 1)[1].strip()
    check(have == value, f"{key} is {value!r} (got {have!r})")
    check(hits[0] == index, f"the setting stays on its line {index + 1} (found on line {hits[0] + 1})")
    others = got[:hits[0]] + got[hits[0] + 1:]
    check(others == rest, f"every other line is unchanged (got {others!r})")

sys.exit(1 if FAILS else 0)
