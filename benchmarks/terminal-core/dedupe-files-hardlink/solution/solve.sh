#!/bin/bash
cd /app/photos
python3 - <<'P'
import hashlib, os
groups = {}
for root, dirs, files in os.walk("."):
    for f in files:
        p = os.path.join(root, f)[2:]
        st = os.lstat(p)
        if not os.path.isfile(p) or os.path.islink(p) or st.st_size == 0:
            continue
        h = hashlib.sha256(open(p, "rb").read()).hexdigest()
        groups.setdefault(h, []).append(p)
report = []
for paths in groups.values():
    paths.sort(key=str.encode)
    keeper = paths[0]
    kino = os.stat(keeper).st_ino
    for p in paths[1:]:
        if os.stat(p).st_ino == kino:
            continue
        tmp = p + ".dedupe-tmp"
        os.link(keeper, tmp)
        os.replace(tmp, p)
        report.append(f"{p} => {keeper}")
report.sort(key=str.encode)
open("/app/dedupe_report.txt", "w").write("".join(r + "\n" for r in report))
P
