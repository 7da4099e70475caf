#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/build/output.log)" "$(dirname /app/build/lines.txt)"
python3 - <<'PY'
with open("/app/build/output.log", "w") as f:
    for i in range(999):
        f.write(f"entry {i} host-{i % 17} value={i * 31 % 1000}\n")
PY
