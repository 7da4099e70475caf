#!/bin/bash
C=/app/var/cache
# files older than the cutoff (strictly before), not .keep, not under pinned/
find "$C" -path "$C/pinned" -prune -o -type f ! -name .keep -print0 | python3 -c '
import calendar, os, sys
cut = calendar.timegm((2024, 1, 1, 0, 0, 0))
paths = [p for p in sys.stdin.buffer.read().decode().split("\0") if p and os.stat(p).st_mtime < cut]
for p in paths:
    os.remove(p)
open("/app/cleanup.log", "w").write("".join(p + "\n" for p in sorted(paths, key=str.encode)))
'
# remove directories that are (now) empty, deepest first, sparing pinned/
find "$C" -mindepth 1 -depth -type d -empty ! -path "$C/pinned" ! -path "$C/pinned/*" -delete
