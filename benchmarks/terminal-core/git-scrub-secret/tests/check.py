import json
import subprocess
import sys

sys.path.insert(0, "/tests")
from dump_history import REPO, SECRET, dump  # noqa: E402

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def git(*args):
    r = subprocess.run(["git", "-C", REPO, *args], capture_output=True)
    return r.returncode, r.stdout, r.stderr


want = json.load(open("/tests/expected_history.json"))
try:
    got = dump()
except subprocess.CalledProcessError as exc:
    check(False, f"refs main, feature/webhooks, v0.9 readable: {exc.stderr[-300:]!r}")
    sys.exit(1)
for ref in want:
    g, w = got.get(ref), want[ref]
    same = g == w
    check(same, f"{ref}: rewritten history matches the original with the secret replaced")
    if not same and g is not None:
        print(f"   {len(g)} commits, expected {len(w)}")
        for i, (a, b) in enumerate(zip(g, w)):
            if a != b:
                print(f"   first difference at commit #{i}: {json.dumps(a)[:300]} vs {json.dumps(b)[:300]}")
                break

_, refs, _ = git("for-each-ref", "--format=%(refname)")
refs = sorted(refs.decode().split())
check(refs == ["refs/heads/feature/webhooks", "refs/heads/main", "refs/tags/v0.9"], f"refs ({refs})")
_, t, _ = git("cat-file", "-t", "v0.9")
_, tmsg, _ = git("tag", "-l", "--format=%(contents)", "v0.9")
check(t.strip() == b"tag" and tmsg.strip() == b"Release 0.9", "v0.9 is an annotated tag 'Release 0.9'")

rc, objs, _ = git("cat-file", "--batch-all-objects", "--batch")
check(rc == 0 and SECRET.encode() not in objs, "no object in the object database contains the secret")
rc, _, err = git("fsck", "--full", "--no-progress", "--no-dangling")
check(rc == 0, f"git fsck --full clean ({err.decode()[-300:]!r})")
rc, reflog, _ = git("reflog", "show", "--all", "--format=%H %gs")
leaked = [ln for ln in reflog.decode().splitlines() if SECRET in ln]
check(not leaked, "no reflog entry mentions the secret")
_, head, _ = git("symbolic-ref", "HEAD")
check(head.strip() == b"refs/heads/main", "main checked out")
_, st, _ = git("status", "--porcelain")
check(st.strip() == b"", "working tree clean")
wt = open(REPO + "/config/settings.py").read()
check("os.environ.get" in wt, "working tree shows main's current settings.py")
sys.exit(1 if FAILS else 0)
