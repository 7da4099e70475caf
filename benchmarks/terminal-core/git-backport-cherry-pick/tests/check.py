import subprocess
import sys

FAILS = []
REPO = "/app/api"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def git(*args):
    r = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    return r.returncode, r.stdout.strip()


_, main_log = git("log", "--format=%H %s", "main")
main_log = [l.split(" ", 1) for l in main_log.splitlines()]
check([s for _, s in main_log] == ["docs: more", "fix: clearer error for missing id", "feat: health handler",
                                   "fix: render with repr", "docs: describe 3.0 API", "fix: reject empty payloads",
                                   "Raise body limit for 3.0", "Start 3.0 development", "Initial API"], "main unchanged")
orig = {s: h for h, s in main_log}

_, rel = git("log", "--format=%H%x00%B%x01", "release/2.1")
commits = [c.strip("\n").split("\x00", 1) for c in rel.split("\x01") if c.strip()]
subjects = [b.splitlines()[0] for _, b in commits]
check(subjects == ["fix: clearer error for missing id", "fix: reject empty payloads", "Release 2.1: smaller body limit",
                   "Initial API"], f"release/2.1 gained exactly the two backports, in order ({subjects})")
if len(commits) == 4:
    for (h, body), subj in zip(commits[:2], subjects[:2]):
        _, orig_body = git("log", "-1", "--format=%B", orig[subj])
        want = orig_body.strip() + f"\n(cherry picked from commit {orig[subj]})"
        check(body.strip() == want, f"'{subj}': original message + cherry-pick -x line")
    _, parent = git("rev-parse", "release/2.1~2")
    _, rel_base = git("log", "-1", "--format=%s", parent)
    check(rel_base == "Release 2.1: smaller body limit", "backports sit on top of the old release tip")
    rc, _ = git("merge-base", "--is-ancestor", "main", "release/2.1")
    check(rc != 0, "release/2.1 does not contain main")

_, handlers = git("show", "release/2.1:handlers.py")
want = '''MAX_BODY = 1024
MIN_BODY = 1


def validate(payload):
    if not payload:
        raise ValueError("empty payload")
    if "id" not in payload:
        raise ValueError("missing field: id")
    return payload


def render(obj):
    return str(obj)'''
check(handlers == want, "handlers.py on release/2.1 has the fixes, the release's MAX_BODY, no conflict markers")
_, ver = git("show", "release/2.1:VERSION")
check(ver == "2.1.0", "VERSION stays 2.1.0")
_, readme = git("show", "release/2.1:README.md")
check(readme == "# api", "docs commits not backported")
_, head = git("symbolic-ref", "HEAD")
check(head == "refs/heads/release/2.1", "release/2.1 checked out")
_, st = git("status", "--porcelain")
check(st == "", "clean working tree")
rc, _ = git("rev-parse", "-q", "--verify", "CHERRY_PICK_HEAD")
check(rc != 0, "no cherry-pick in progress")
sys.exit(1 if FAILS else 0)
