import os
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


EXPECTED = [
    "3000000 .cache/blob.bin",
    "2500000 media/intro video.mp4",
    "1048576 backups/db-2024-01-01.sql",
    "1048576 backups/db-2024-02-01.sql",
    "900000 logs/app.log",
    "524289 media/thumbs/b.png",
]

path = "/app/large_files.txt"
check(os.path.isfile(path), "/app/large_files.txt exists")
if os.path.isfile(path):
    data = open(path, encoding="utf-8", errors="replace").read()
    check(data.endswith("\n"), "report ends with a newline")
    lines = [ln for ln in data.splitlines() if ln.strip() != ""]
    print("report lines:", lines)
    check(lines == EXPECTED, "report lists exactly the expected files in the expected order and format")

# the tree must be untouched
sizes = {".cache/blob.bin": 3000000, "logs/app.log.1": 524288, "media/intro video.mp4": 2500000,
         "docs/manual.pdf": 524000, "tmp/empty": 0}
for rel, size in sizes.items():
    p = os.path.join("/app/storage", rel)
    check(os.path.isfile(p) and os.path.getsize(p) == size, f"{rel} still present with size {size}")
check(os.path.islink("/app/storage/media/latest.bin"), "symlink media/latest.bin untouched")
sys.exit(1 if FAILS else 0)
