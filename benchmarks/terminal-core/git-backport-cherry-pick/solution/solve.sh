#!/bin/bash
cd /app/api
git checkout -q release/2.1
for c in $(git log --reverse --format=%H release/2.1..main); do
  if git log -1 --format=%B "$c" | grep -qx 'Backport: release/2.1'; then
    if ! git cherry-pick -x "$c" >/dev/null 2>&1; then
      # conflict around MAX_BODY: keep the release value, take the added MIN_BODY line
      python3 - <<'P'
import re
s = open("handlers.py").read()
s = re.sub(r"<<<<<<< [^\n]*\n(.*?)=======\n(.*?)>>>>>>> [^\n]*\n",
           lambda m: m.group(1) + "".join(l for l in m.group(2).splitlines(True) if not l.startswith("MAX_BODY")),
           s, flags=re.S)
open("handlers.py", "w").write(s)
P
      git add handlers.py
      GIT_EDITOR=true git cherry-pick --continue >/dev/null
    fi
  fi
done
