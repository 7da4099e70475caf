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


import gzip
import hashlib
file = '/app/build/bundle.js'
want = '024f7b21d96cf492c6df41bedcc05deeac35d14af6d8cdef1f33e0d19ad805ac'
try:
    with gzip.open(file + ".gz", "rb") as f:
        unpacked = hashlib.sha256(f.read()).hexdigest()
except (OSError, EOFError) as exc:
    unpacked = None
    print("cannot read the gzip file:", exc)
check(os.path.isfile(file + ".gz") and unpacked == want, f"{file}.gz decompresses to the original")
original = None
if os.path.isfile(file) and not os.path.islink(file):
    with open(file, "rb") as f:
        original = hashlib.sha256(f.read()).hexdigest()
check(original == want, f"{file} is still there, unchanged")

sys.exit(1 if FAILS else 0)
