import subprocess
import sys

FAILS = []
REPO = "/app/webapp"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def git(*args):
    r = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    return r.returncode, r.stdout.strip()


_, head_ref = git("symbolic-ref", "HEAD")
check(head_ref == "refs/heads/main", f"main is checked out ({head_ref})")
_, parents = git("rev-list", "--parents", "-n", "1", "main")
parents = parents.split()[1:]
_, feat = git("rev-parse", "feature/rate-limit")
_, feat_msg = git("log", "-1", "--format=%s|%aI", "feature/rate-limit")
check(feat_msg == "Add rate limiting|2024-03-01T09:00:00+00:00", "feature branch not rewritten")
check(len(parents) == 2, f"main tip is a merge commit ({len(parents)} parents)")
if len(parents) == 2:
    _, p1 = git("log", "-1", "--format=%s|%aI", parents[0])
    check(p1 == "Serve API host, raise timeout|2024-03-02T09:00:00+00:00", "first parent is the old main tip")
    check(parents[1] == feat, "second parent is feature/rate-limit")

rc, cfg = git("show", "main:config.py")
check("<<<<<<<" not in cfg and ">>>>>>>" not in cfg and "=======" not in cfg, "no conflict markers in config.py")
ns = {}
try:
    exec(cfg, ns)
except Exception as exc:  # noqa: BLE001
    check(False, f"config.py is valid Python: {exc}")
want = {"DEBUG": False, "TIMEOUT": 45, "RETRIES": 3,
        "ALLOWED_HOSTS": ["example.com", "api.example.com", "www.example.com"], "LOG_LEVEL": "INFO",
        "RATE_LIMIT_PER_MINUTE": 120, "RATE_LIMIT_BURST": 20}
got = {k: v for k, v in ns.items() if k.isupper()}
check(got == want, f"config.py settings resolved as specified (got {got})")
names = [ln.split("=")[0].strip() for ln in cfg.splitlines() if ln.strip()]
check(names == list(want), f"one setting per line, original order, new settings last ({names})")

_, cl = git("show", "main:CHANGELOG.md")
check(cl.strip() == ("# Changelog\n\n## Unreleased\n- Serve the API from api.example.com\n"
                     "- Add token-bucket rate limiting\n\n## 1.0.0\n- First release"),
      "CHANGELOG.md resolved as specified")
rc, rl = git("show", "main:ratelimit.py")
check(rc == 0 and "class TokenBucket" in rl, "ratelimit.py from the feature branch is merged")
_, status = git("status", "--porcelain")
check(status == "", f"working tree clean ({status!r})")
rc, _ = git("rev-parse", "-q", "--verify", "MERGE_HEAD")
check(rc != 0, "no merge in progress")
sys.exit(1 if FAILS else 0)
