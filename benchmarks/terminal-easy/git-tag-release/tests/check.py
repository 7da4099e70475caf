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


os.environ.update(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")  # the agent's config must not matter
g = "git -c safe.directory='*' -C /app/repo "
MAIN = "e8003002d0d649fa4eeda7b161532ba9f0951592"
DEVELOP = "1a3e15f32e1ea36f783e545ec3acb885595118bc"
check(sh(g + "rev-parse --verify -q 'refs/tags/v1.0^{commit}'") == MAIN, "the tag v1.0 is on the latest commit of main")
check(sh(g + "rev-parse --verify -q refs/heads/main") == MAIN, "main is unchanged")

sys.exit(1 if FAILS else 0)
