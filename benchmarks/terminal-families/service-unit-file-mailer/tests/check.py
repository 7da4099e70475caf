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


import shlex


def unit(path):
    """{section: [(key, value), ...]} of a unit file, or None when it is missing."""
    text = read(path)
    if text is None:
        return None
    sections, current = {}, None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1].strip(), [])
            continue
        if "=" in line and current is not None:
            k, v = line.split("=", 1)
            current.append((k.strip(), v.strip()))
    return sections


def values(sections, section, key):
    return [v for k, v in sections.get(section, []) if k == key]


def last(sections, section, key):
    found = values(sections, section, key)
    return found[-1] if found else None


def environment(sections):
    out = set()
    for v in values(sections, "Service", "Environment"):
        try:
            out.update(shlex.split(v))
        except ValueError:
            pass
    return out


u = unit('/root/units/mailer.service')
check(u is not None, "/root/units/mailer.service exists")
u = u or {}
print("sections:", u)
check(last(u, "Unit", "Description") == 'Outgoing mail relay', "[Unit] Description=Outgoing mail relay")
check((last(u, "Service", "ExecStart") or "").split() == ['/opt/mailer/mailer', '--config', '/etc/mailer.conf'], "[Service] ExecStart=/opt/mailer/mailer --config /etc/mailer.conf")
check(last(u, "Service", "User") == 'mail', "[Service] User=mail")
check((last(u, "Service", "WorkingDirectory") or "").rstrip("/") == '/opt/mailer', "[Service] WorkingDirectory=/opt/mailer")
check('SMTP_HOST=smtp.internal' in environment(u), "[Service] Environment sets SMTP_HOST=smtp.internal")
check(last(u, "Service", "Restart") == 'always', "[Service] Restart=always")
check(any("multi-user.target" in v.split() for v in values(u, "Install", "WantedBy")),
      "[Install] WantedBy=multi-user.target")

sys.exit(1 if FAILS else 0)
