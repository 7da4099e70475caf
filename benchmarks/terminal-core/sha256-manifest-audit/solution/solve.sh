#!/bin/bash
cd /app/release
python3 - <<'P'
import hashlib, os
manifest = {}
for line in open("/app/release.sha256", encoding="utf-8"):
    line = line.rstrip("\n")
    if not line:
        continue
    digest, path = line[:64], line[66:]
    manifest[path] = digest
present = set()
for root, dirs, files in os.walk("."):
    for f in files:
        p = os.path.join(root, f)[2:]
        if os.path.isfile(p) and not os.path.islink(p):
            present.add(p)
out = []
for p in sorted(set(manifest) | present, key=lambda s: s.encode()):
    if p in manifest and p not in present:
        out.append(f"MISSING {p}")
    elif p not in manifest:
        out.append(f"UNLISTED {p}")
    elif hashlib.sha256(open(p, "rb").read()).hexdigest() != manifest[p]:
        out.append(f"MODIFIED {p}")
open("/app/audit.txt", "w").write("".join(l + "\n" for l in out))
P
