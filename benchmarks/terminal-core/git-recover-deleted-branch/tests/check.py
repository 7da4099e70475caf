import subprocess
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def git(*args):
    r = subprocess.run(["git", "-C", "/app/shop", *args], capture_output=True, text=True)
    return r.returncode, r.stdout.strip()


rc, tip = git("rev-parse", "--verify", "-q", "refs/heads/feature/refunds")
check(rc == 0, "branch feature/refunds exists")
if rc == 0:
    _, msgs = git("log", "--format=%s", "refs/heads/feature/refunds")
    check(msgs.splitlines() == ["Add partial refund support", "Add refund endpoint", "Initial shop app"],
          f"branch history is the original one (got {msgs.splitlines()})")
    # the original commit: fixed dates make its identity reproducible
    _, meta = git("show", "-s", "--format=%an|%ae|%aI|%cI", tip)
    check(meta == "Shop Dev|dev@shop.example|2024-05-01T10:00:00+00:00|2024-05-01T10:00:00+00:00",
          f"tip is the original commit, not a re-created copy ({meta})")
    rc2, content = git("show", f"{tip}:refunds.py")
    check(rc2 == 0 and "def partial_refund" in content and "def refund" in content, "refunds.py content intact")
    rc3, _ = git("cat-file", "-e", f"{tip}:debug.py")
    check(rc3 != 0, "branch does not contain the unrelated WIP commit")

_, head = git("symbolic-ref", "HEAD")
check(head == "refs/heads/main", f"main is checked out ({head})")
_, main_msgs = git("log", "--format=%s", "main")
check(main_msgs.splitlines() == ["Update README", "Initial shop app"], "main unchanged")
_, status = git("status", "--porcelain")
check(status == "", "working tree clean")
sys.exit(1 if FAILS else 0)
