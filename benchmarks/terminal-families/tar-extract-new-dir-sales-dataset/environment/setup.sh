#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /data/incoming/sales-q3.tar.gz)"
python3 - <<'PY'
import os
base = '/tmp/build-sales-dataset/'
files = {'regions.csv': 'region_id,name\n1,North\n2,South\n3,East\n4,West\n', '2024/07.csv': 'day,region_id,amount\n2024-07-01,1,1200.50\n2024-07-01,2,980.00\n', '2024/08.csv': 'day,region_id,amount\n2024-08-01,3,1410.25\n2024-08-02,4,730.10\n', '2024/09.csv': 'day,region_id,amount\n2024-09-01,1,1650.00\n2024-09-03,2,1122.40\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
tar -czf /data/incoming/sales-q3.tar.gz -C /tmp/build-sales-dataset .
rm -rf /tmp/build-sales-dataset
