import os
import shutil
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


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def sh(command):
    """Run a verifier command (as root, not the agent's code); its stdout, stripped."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout.strip()


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




def lines(text):
    """The lines of `text` with trailing whitespace and trailing blank lines dropped (None stays None)."""
    if text is None:
        return None
    out = [line.rstrip() for line in text.splitlines()]
    while out and not out[-1]:
        out.pop()
    return out


got = read("/app/items.csv")
check(lines(got) == ["id,name,price", "1,pen,2", "2,book,12", "3,lamp,30", "4,cup,5"], f"/app/items.csv holds its rows then the new ones (got {got!r})")

sys.exit(1 if FAILS else 0)
