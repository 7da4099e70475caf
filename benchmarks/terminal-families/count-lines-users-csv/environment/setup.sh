#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /data/users.csv)" "$(dirname /data/count.txt)"
python3 - <<'PY'
with open("/data/users.csv", "w") as f:
    for i in range(512):
        f.write(f"entry {i} host-{i % 17} value={i * 31 % 1000}\n")
PY
