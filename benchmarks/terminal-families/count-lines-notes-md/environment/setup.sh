#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/dev/notes.md)" "$(dirname /home/dev/notes.count)"
python3 - <<'PY'
with open("/home/dev/notes.md", "w") as f:
    for i in range(42):
        f.write(f"entry {i} host-{i % 17} value={i * 31 % 1000}\n")
PY
