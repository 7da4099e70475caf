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


got = lines('/tmp/syslog_window.txt')
check(got is not None, "/tmp/syslog_window.txt exists")
want = ['Mar 4 07:13:26 host1 dhclient[455]: Reached target Timers. (seq 1199)', 'Mar 5 08:20:33 host1 sshd[902]: Reached target Timers. (seq 1200)', 'Mar 5 09:27:55 host1 sshd[902]: Started Daily apt activities. (seq 1201)', 'Mar 5 10:34:52 host1 kernel: Accepted publickey for deploy (seq 1202)', 'Mar 5 11:41:40 host1 rsyslogd[300]: session opened for user root (seq 1203)', 'Mar 5 12:48:35 host1 kernel: rotating log files (seq 1204)', 'Mar 5 13:55:13 host1 rsyslogd[300]: Started Daily apt activities. (seq 1205)', 'Mar 5 14:02:45 host1 rsyslogd[300]: link eth0 up (seq 1206)', 'Mar 5 15:09:28 host1 dhclient[455]: DHCPACK from 10.0.0.1 (seq 1207)', 'Mar 5 16:16:37 host1 systemd[1]: Started Daily apt activities. (seq 1208)', 'Mar 5 17:23:07 host1 dhclient[455]: Started Daily apt activities. (seq 1209)', 'Mar 5 18:30:57 host1 systemd[1]: session opened for user root (seq 1210)', 'Mar 5 19:37:25 host1 cron[611]: rotating log files (seq 1211)', 'Mar 5 20:44:36 host1 rsyslogd[300]: Reached target Timers. (seq 1212)', 'Mar 5 21:51:41 host1 kernel: DHCPACK from 10.0.0.1 (seq 1213)', 'Mar 5 22:58:56 host1 kernel: Accepted publickey for deploy (seq 1214)']
got = [line.rstrip() for line in got] if got is not None else None
check(got == want, f"it holds lines 200 to 215, 16 lines (got {got!r})")

sys.exit(1 if FAILS else 0)
