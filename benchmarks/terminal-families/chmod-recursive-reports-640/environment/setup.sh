#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/srv/reports'
files = {'index.csv': 'index.csv: sample content\n', '2023/annual.csv': '2023/annual.csv: sample content\n', '2024/q1.csv': '2024/q1.csv: sample content\n', '2024/q2/april.csv': '2024/q2/april.csv: sample content\n', '2024/q2/may.csv': '2024/q2/may.csv: sample content\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
chmod 666 /srv/reports/index.csv
chmod 600 /srv/reports/2023/annual.csv
chmod 644 /srv/reports/2024/q1.csv
chmod 664 /srv/reports/2024/q2/april.csv
chmod 600 /srv/reports/2024/q2/may.csv
mkdir -p /srv/reports/2024/q2
chmod 751 /srv/reports/2024/q2
mkdir -p /srv/reports/2023
chmod 751 /srv/reports/2023
mkdir -p /srv/reports/2024
chmod 775 /srv/reports/2024
mkdir -p /srv/reports
chmod 775 /srv/reports
