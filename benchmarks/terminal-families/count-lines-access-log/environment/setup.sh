#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/logs/access.log)" "$(dirname /app/line_count.txt)"
python3 - <<'PY'
with open("/app/logs/access.log", "w") as f:
    for i in range(1234):
        f.write(f"entry {i} host-{i % 17} value={i * 31 % 1000}\n")
PY
