#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /root/archive/logs-may.tar.xz)"
python3 - <<'PY'
import os
base = '/tmp/build-may-logs-xz/logs'
files = {'api/2024-05-30.log': '2024-05-30T10:00:01 INFO request GET /health 200\n', 'api/2024-05-31.log': '2024-05-31T11:12:13 ERROR request POST /orders 500\n', 'worker/2024-05-31.log': '2024-05-31T02:00:00 INFO job nightly-sync done in 41s\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
tar -cJf /root/archive/logs-may.tar.xz -C /tmp/build-may-logs-xz logs
rm -rf /tmp/build-may-logs-xz
