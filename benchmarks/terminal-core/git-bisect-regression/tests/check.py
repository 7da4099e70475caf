import subprocess
import sys

FAILS = []
REPO = "/app/statkit"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def git(*args):
    r = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    return r.returncode, r.stdout.strip()


_, culprit = git("log", "--format=%H", "--grep=^Simplify median for even-sized data$", "main")
check(len(culprit) == 40, "culprit commit located by the checker")
try:
    got = open("/app/first_bad.txt").read()
except OSError:
    got = ""
check(got.strip() == culprit, f"first_bad.txt holds the culprit hash (got {got.strip()[:45]!r})")

_, main_msgs = git("log", "--format=%s", "main")
_, main_tip = git("rev-parse", "main")
check(main_msgs.splitlines()[0] == "Changelog entry 58" and len(main_msgs.splitlines()) == 58, "main not moved")
_, tag = git("rev-list", "-n1", "v1.0")
_, tag_msg = git("log", "-1", "--format=%s", tag)
check(tag_msg == "Docs: usage note 4", "v1.0 not moved")

rc, hot = git("rev-parse", "--verify", "-q", "refs/heads/hotfix")
check(rc == 0, "branch hotfix exists")
if rc == 0:
    _, parents = git("rev-list", "--parents", "-n1", "hotfix")
    check(parents.split()[1:] == [main_tip], "hotfix is exactly one commit on top of main")
    _, changed = git("diff", "--name-only", "main", "hotfix")
    check(changed.split() == ["stats.py"], f"hotfix changes only stats.py ({changed.split()})")
    # the hotfix diff must be the exact inverse of the culprit's diff
    _, fwd = git("diff", f"{culprit}^", culprit, "--", "stats.py")
    _, back = git("diff", "hotfix", "main", "--", "stats.py")
    strip = lambda d: [l for l in d.splitlines() if l[:1] in "+-" and not l.startswith(("+++", "---"))]  # noqa: E731
    check(strip(fwd) == strip(back), "hotfix undoes exactly the culprit's change")
    _, src = git("show", "hotfix:stats.py")
    ns = {}
    try:
        exec(compile(src, "stats.py", "exec"), ns)
        cases = [([10, 20], 15.0), ([4, 1, 3, 2], 2.5), ([5, 1, 3], 3), ([7], 7), ([1, 2, 3, 4, 5, 6], 3.5),
                 ([2, 2], 2.0), ([-1, 1], 0.0)]
        bad = [(c, ns["median"](c)) for c, w in cases if ns["median"](c) != w]
        check(not bad, f"median correct on hotfix ({bad})")
        check(ns["mean"]([1, 2, 3, 4]) == 2.5 and ns["mean"](iter([2, 4])) == 3, "mean still works on hotfix")
        check("percentile" in ns and ns["percentile"]([1, 2, 3, 4, 5], 50) == 3, "later changes (percentile) kept")
    except Exception as exc:  # noqa: BLE001
        check(False, f"hotfix stats.py imports and works: {exc!r}")
sys.exit(1 if FAILS else 0)
