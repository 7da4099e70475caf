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


os.environ.update(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")  # the agent's config must not matter
g = "git -c safe.directory='*' -C /app/repo "
check(sh(g + "log -1 --format=%s") == 'Update README', "the latest commit is 'Update README'")
check(sh(g + "log -1 --format=%s HEAD~1") == 'Fix rounding in invoice totals', "it sits directly on 'Fix rounding in invoice totals'")
check(sh(g + "diff --name-only HEAD~1 HEAD") == 'README.md', "the commit changes only README.md")
check(sh(g + "show HEAD:README.md") == '# Shop\n\nA small web shop.\n\nRun it with `make run`.', "the commit holds the new README.md")
for path, now, before in [('src/cart.py', 'def total(items):\n    return round(sum(items), 2)  # TODO: currency\n', 'def total(items):\n    return round(sum(items), 2)\n')]:
    check(sh(g + "show HEAD:" + path) == before.strip(), path + " is not committed")
    check(read('/app/repo' + "/" + path) == now, path + " keeps its uncommitted change")
for path, content in [('scratch.txt', 'temporary notes\n')]:
    check(sh(g + "ls-tree -r --name-only HEAD -- " + path) == "", path + " is not committed")
    check(read('/app/repo' + "/" + path) == content, path + " is still there")

sys.exit(1 if FAILS else 0)
