import os
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


EXPECTED = {
    "pdf": ["report.PDF"],
    "jpg": ["photo.JPG", "photo.jpg"],
    "gz": ["archive.tar.gz", "backup.GZ"],
    "noext": [".bashrc", "Makefile", "README", "weird."],
    "txt": ["notes.txt", "todo list.TXT"],
    "csv": ["data.2024.csv"],
    "sh": ["script.sh"],
    "jpeg": ["image.Jpeg"],
}

check(os.path.isdir("/app/sorted"), "/app/sorted exists")
if os.path.isdir("/app/sorted"):
    got_dirs = sorted(os.listdir("/app/sorted"))
    check(got_dirs == sorted(EXPECTED), f"sorted/ has exactly the directories {sorted(EXPECTED)} (got {got_dirs})")
    for ext, names in EXPECTED.items():
        d = os.path.join("/app/sorted", ext)
        got = sorted(os.listdir(d)) if os.path.isdir(d) else None
        check(got == sorted(names), f"sorted/{ext} contains {sorted(names)} (got {got})")
        for n in names:
            p = os.path.join(d, n)
            ok = os.path.isfile(p) and open(p).read() == f"content of {n}\n"
            check(ok, f"sorted/{ext}/{n} has its original content")

top = sorted(os.listdir("/app/inbox")) if os.path.isdir("/app/inbox") else None
check(top == ["keep-me"], f"/app/inbox only keeps the subdirectory (got {top})")
inner = "/app/inbox/keep-me/inner.txt"
check(os.path.isfile(inner) and open(inner).read() == "do not move me\n", "subdirectory content untouched")
sys.exit(1 if FAILS else 0)
