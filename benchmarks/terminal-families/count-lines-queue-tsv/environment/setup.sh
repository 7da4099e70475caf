#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /opt/queue/jobs.tsv)" "$(dirname /opt/queue/njobs.txt)"
python3 - <<'PY'
with open("/opt/queue/jobs.tsv", "w") as f:
    for i in range(250):
        f.write(f"entry {i} host-{i % 17} value={i * 31 % 1000}\n")
PY
