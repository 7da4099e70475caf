import hashlib
import os
import sys

FAILS = []
R = "/app/photos"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


GROUPS = [  # keeper first
    ["2023/beach (copy).jpg", "2023/beach.jpg", "backup/2023/beach.jpg"],
    ["2024/mountain.jpg", "inbox/IMG_0001.jpg"],
    ["2024/party/cake 2.jpg", "2024/party/cake.jpg", "backup/old/e.jpg"],
    [".thumbs/g.jpg", "inbox/IMG_0003.jpg"],
    ["backup/old/f-again.jpg", "backup/old/f.jpg"],
]
SINGLES = ["2023/dog.jpg", "2024/dog-edit.jpg", "inbox/IMG_0002.jpg"]
REPORT = [
    "2023/beach.jpg => 2023/beach (copy).jpg",
    "2024/party/cake.jpg => 2024/party/cake 2.jpg",
    "backup/2023/beach.jpg => 2023/beach (copy).jpg",
    "backup/old/e.jpg => 2024/party/cake 2.jpg",
    "inbox/IMG_0001.jpg => 2024/mountain.jpg",
    "inbox/IMG_0003.jpg => .thumbs/g.jpg",
]
ALL = sorted([p for g in GROUPS for p in g] + SINGLES + ["inbox/empty1.jpg", "inbox/empty2.jpg", "inbox/dog-link.jpg"])

found = []
for root, dirs, files in os.walk(R):
    for f in files:
        found.append(os.path.relpath(os.path.join(root, f), R))
check(sorted(found) == ALL, f"exactly the original paths exist ({sorted(set(found) ^ set(ALL))})")

SIZES = {}
for g in GROUPS:
    inos = {os.lstat(os.path.join(R, p)).st_ino for p in g if os.path.exists(os.path.join(R, p))}
    check(len(inos) == 1, f"group {g[0]}: all {len(g)} paths share one inode")
    digests = {hashlib.sha256(open(os.path.join(R, p), "rb").read()).hexdigest() for p in g if os.path.exists(os.path.join(R, p))}
    check(len(digests) == 1, f"group {g[0]}: content intact")
keeper_inodes = [os.lstat(os.path.join(R, g[0])).st_ino for g in GROUPS if os.path.exists(os.path.join(R, g[0]))]
check(len(set(keeper_inodes)) == len(GROUPS), "different groups are not linked together")
single_inos = [os.lstat(os.path.join(R, p)).st_ino for p in SINGLES if os.path.exists(os.path.join(R, p))]
check(len(set(single_inos + keeper_inodes)) == len(SINGLES) + len(GROUPS), "unique files (incl. same-size ones) untouched")
for p in SINGLES:
    fp = os.path.join(R, p)
    check(os.path.exists(fp) and os.stat(fp).st_nlink == 1, f"{p} not linked")
e1, e2 = os.path.join(R, "inbox/empty1.jpg"), os.path.join(R, "inbox/empty2.jpg")
check(os.path.exists(e1) and os.path.exists(e2) and os.stat(e1).st_ino != os.stat(e2).st_ino, "empty files left alone")
lk = os.path.join(R, "inbox/dog-link.jpg")
check(os.path.islink(lk) and os.readlink(lk) == "../2023/dog.jpg", "symlink left alone")

# keepers really are the first path in byte order (their inode is shared, so check the report)
try:
    rep = [l for l in open("/app/dedupe_report.txt").read().splitlines() if l.strip()]
except OSError:
    rep = None
print("report:", rep)
check(rep == REPORT, "dedupe_report.txt lists exactly the replaced duplicates, sorted")
sys.exit(1 if FAILS else 0)
