#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/srv/data/reports'
files = {'q1/summary.csv': 'metric,value\nrevenue,120400\ncosts,80210\n', 'q2/summary.csv': 'metric,value\nrevenue,131900\ncosts,84400\n', 'README.txt': 'Quarterly reports, one folder per quarter.\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /tmp/reports.tar.gz)"
