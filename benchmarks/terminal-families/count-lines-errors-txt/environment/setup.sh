#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/report/errors.txt)" "$(dirname /srv/report/errors_total.txt)"
python3 - <<'PY'
with open("/srv/report/errors.txt", "w") as f:
    for i in range(87):
        f.write(f"entry {i} host-{i % 17} value={i * 31 % 1000}\n")
PY
