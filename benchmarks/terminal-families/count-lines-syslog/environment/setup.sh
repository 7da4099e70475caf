#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /var/log/app/syslog.1)" "$(dirname /root/syslog_lines)"
python3 - <<'PY'
with open("/var/log/app/syslog.1", "w") as f:
    for i in range(3001):
        f.write(f"entry {i} host-{i % 17} value={i * 31 % 1000}\n")
PY
