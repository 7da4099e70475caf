import calendar
import os
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


C = "/app/var/cache"
DELETED = [
    "/app/var/cache/http/resp-001.bin",
    "/app/var/cache/http/with space.bin",
    "/app/var/cache/index.db",
    "/app/var/cache/sessions/2023/s1",
    "/app/var/cache/sessions/2023/s2",
    "/app/var/cache/thumbs/a1.jpg",
    "/app/var/cache/thumbs/old/x.jpg",
    "/app/var/cache/thumbs/old/y.jpg",
]
KEPT = {
    "thumbs/a2.jpg": "2024-02-10 10:00:00",
    "thumbs/old/.keep": "2020-01-01 00:00:00",
    "http/resp-002.bin": "2024-01-01 00:00:00",
    "http/resp-003.bin": "2025-05-05 05:05:05",
    "pinned/model.bin": "2019-01-01 00:00:00",
    "pinned/sub/vocab.txt": "2019-01-01 00:00:00",
    ".keep": "2018-01-01 00:00:00",
}


def ts(s):
    import time
    return calendar.timegm(time.strptime(s, "%Y-%m-%d %H:%M:%S"))


files = set()
dirs = set()
for root, ds, fs in os.walk(C):
    for f in fs:
        files.add(os.path.relpath(os.path.join(root, f), C))
    for d in ds:
        dirs.add(os.path.relpath(os.path.join(root, d), C))
check(files == set(KEPT), f"exactly the expected files remain (got {sorted(files)})")
for rel, when in KEPT.items():
    p = os.path.join(C, rel)
    if os.path.isfile(p):
        check(int(os.path.getmtime(p)) == ts(when), f"{rel} keeps its mtime")
        check(open(p).read() == f"data {rel}\n", f"{rel} keeps its content")
check(dirs == {"thumbs", "thumbs/old", "http", "pinned", "pinned/sub"},
      f"empty directories removed, others kept (got {sorted(dirs)})")
log = "/app/cleanup.log"
check(os.path.isfile(log), "cleanup.log exists")
if os.path.isfile(log):
    lines = [ln for ln in open(log).read().splitlines() if ln.strip()]
    print("log:", lines)
    check(lines == DELETED, "cleanup.log lists exactly the deleted files, sorted")
sys.exit(1 if FAILS else 0)
