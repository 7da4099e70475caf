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


got = lines('/root/slice.log')
check(got is not None, "/root/slice.log exists")
want = ['10.0.1.239 - - [02/Mar/2024:09:40:56 +0000] "GET /logout HTTP/1.1" 404 2530', '10.0.2.206 - - [02/Mar/2024:09:41:57 +0000] "GET /checkout HTTP/1.1" 404 562', '10.0.0.71 - - [02/Mar/2024:09:42:31 +0000] "GET /logout HTTP/1.1" 200 4642', '10.0.2.91 - - [02/Mar/2024:09:43:45 +0000] "GET / HTTP/1.1" 200 1728', '10.0.2.167 - - [02/Mar/2024:09:44:40 +0000] "GET /cart HTTP/1.1" 200 626', '10.0.3.163 - - [02/Mar/2024:09:45:47 +0000] "GET / HTTP/1.1" 200 3311', '10.0.2.192 - - [02/Mar/2024:09:46:49 +0000] "GET / HTTP/1.1" 404 1110', '10.0.0.95 - - [02/Mar/2024:09:47:12 +0000] "GET /api/items HTTP/1.1" 302 1348', '10.0.2.26 - - [02/Mar/2024:09:48:18 +0000] "GET /login HTTP/1.1" 200 4562', '10.0.2.23 - - [02/Mar/2024:09:49:59 +0000] "GET /api/items HTTP/1.1" 200 3539', '10.0.3.24 - - [02/Mar/2024:09:50:05 +0000] "GET /checkout HTTP/1.1" 200 3793', '10.0.1.204 - - [02/Mar/2024:09:51:38 +0000] "GET /search HTTP/1.1" 404 2304', '10.0.0.238 - - [02/Mar/2024:09:52:44 +0000] "GET /checkout HTTP/1.1" 404 2360', '10.0.0.149 - - [02/Mar/2024:09:53:07 +0000] "GET / HTTP/1.1" 404 3798', '10.0.3.220 - - [02/Mar/2024:09:54:36 +0000] "GET /checkout HTTP/1.1" 200 2707', '10.0.0.64 - - [02/Mar/2024:09:55:35 +0000] "GET /logout HTTP/1.1" 404 2475', '10.0.2.163 - - [02/Mar/2024:09:56:57 +0000] "GET /api/items HTTP/1.1" 200 390', '10.0.1.233 - - [02/Mar/2024:09:57:29 +0000] "GET /search HTTP/1.1" 200 953', '10.0.2.244 - - [02/Mar/2024:09:58:59 +0000] "GET /cart HTTP/1.1" 200 1740', '10.0.3.99 - - [02/Mar/2024:09:59:35 +0000] "GET /search HTTP/1.1" 404 3964', '10.0.2.99 - - [02/Mar/2024:10:00:41 +0000] "GET /api/items HTTP/1.1" 302 186', '10.0.2.100 - - [02/Mar/2024:10:01:39 +0000] "GET /logout HTTP/1.1" 200 1962', '10.0.1.184 - - [02/Mar/2024:10:02:12 +0000] "GET /search HTTP/1.1" 404 4668', '10.0.1.6 - - [02/Mar/2024:10:03:58 +0000] "GET /search HTTP/1.1" 200 2893', '10.0.2.110 - - [02/Mar/2024:10:04:16 +0000] "GET /login HTTP/1.1" 302 622', '10.0.1.235 - - [02/Mar/2024:10:05:43 +0000] "GET /api/items HTTP/1.1" 200 2994', '10.0.2.14 - - [02/Mar/2024:10:06:44 +0000] "GET /logout HTTP/1.1" 200 1771', '10.0.2.197 - - [02/Mar/2024:10:07:08 +0000] "GET / HTTP/1.1" 302 4533', '10.0.0.164 - - [02/Mar/2024:10:08:05 +0000] "GET /search HTTP/1.1" 200 2008', '10.0.3.234 - - [02/Mar/2024:10:09:03 +0000] "GET /cart HTTP/1.1" 200 3057', '10.0.2.147 - - [02/Mar/2024:10:10:55 +0000] "GET /logout HTTP/1.1" 200 2305', '10.0.2.215 - - [02/Mar/2024:10:11:21 +0000] "GET / HTTP/1.1" 302 123', '10.0.2.19 - - [02/Mar/2024:10:12:58 +0000] "GET /cart HTTP/1.1" 404 3329', '10.0.1.96 - - [02/Mar/2024:10:13:02 +0000] "GET /api/items HTTP/1.1" 302 4311', '10.0.1.226 - - [02/Mar/2024:10:14:50 +0000] "GET /cart HTTP/1.1" 200 2574', '10.0.0.98 - - [02/Mar/2024:10:15:13 +0000] "GET /cart HTTP/1.1" 302 1249', '10.0.2.175 - - [02/Mar/2024:10:16:30 +0000] "GET /cart HTTP/1.1" 200 1154', '10.0.1.238 - - [02/Mar/2024:10:17:11 +0000] "GET /cart HTTP/1.1" 404 3804', '10.0.3.21 - - [02/Mar/2024:10:18:47 +0000] "GET /checkout HTTP/1.1" 404 2642', '10.0.2.178 - - [02/Mar/2024:10:19:32 +0000] "GET /search HTTP/1.1" 200 3110', '10.0.2.182 - - [02/Mar/2024:10:20:17 +0000] "GET /login HTTP/1.1" 200 2753', '10.0.0.144 - - [02/Mar/2024:10:21:40 +0000] "GET / HTTP/1.1" 302 1633', '10.0.0.112 - - [02/Mar/2024:10:22:51 +0000] "GET /cart HTTP/1.1" 200 292', '10.0.3.41 - - [02/Mar/2024:10:23:10 +0000] "GET /checkout HTTP/1.1" 200 3393', '10.0.0.149 - - [02/Mar/2024:10:24:34 +0000] "GET /api/items HTTP/1.1" 404 648', '10.0.2.37 - - [02/Mar/2024:10:25:59 +0000] "GET /logout HTTP/1.1" 200 3876', '10.0.0.55 - - [02/Mar/2024:10:26:03 +0000] "GET /logout HTTP/1.1" 200 3942', '10.0.3.31 - - [02/Mar/2024:10:27:59 +0000] "GET /cart HTTP/1.1" 302 924', '10.0.2.52 - - [02/Mar/2024:10:28:31 +0000] "GET / HTTP/1.1" 200 4965', '10.0.0.98 - - [02/Mar/2024:10:29:38 +0000] "GET /api/items HTTP/1.1" 404 2470']
got = [line.rstrip() for line in got] if got is not None else None
check(got == want, f"it holds lines 101 to 150, 50 lines (got {got!r})")

sys.exit(1 if FAILS else 0)
