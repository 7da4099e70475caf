import hashlib
import os
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


EXPECTED = [
    "MODIFIED bin/toold",
    "MODIFIED lib/libcore.so.3",
    "UNLISTED lib/plugins/.hidden.so",
    "MODIFIED lib/plugins/gamma.so",
    "MISSING share/doc/LICENSE",
    "UNLISTED share/doc/notes 2.txt",
]
out = "/app/audit.txt"
check(os.path.isfile(out), f"{out} exists")
if os.path.isfile(out):
    lines = [ln.rstrip() for ln in open(out).read().splitlines() if ln.strip()]
    print("got:", lines)
    check(sorted(lines) == sorted(EXPECTED), "the right set of findings")
    check(lines == EXPECTED, "findings sorted by path")

# nothing was changed
check(not os.path.exists("/app/release/share/doc/LICENSE"), "missing file was not re-created")
check(os.path.exists("/app/release/lib/plugins/.hidden.so"), "unlisted file left in place")
check(hashlib.sha256(open("/app/release.sha256", "rb").read()).hexdigest() == "693285f6126d30358c3432f2b3a47216a87fc2d6e72dd1c2ad712c693450edda",
      "manifest unchanged")
sys.exit(1 if FAILS else 0)
