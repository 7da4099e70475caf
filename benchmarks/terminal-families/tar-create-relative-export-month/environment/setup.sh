#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/data/exports/2024-06'
files = {'customers.csv': 'id,name,country\n1,Acme,DE\n2,Globex,US\n', 'invoices.csv': 'id,customer_id,amount\n10,1,250.00\n11,2,99.90\n', 'meta/export.json': '{"month": "2024-06", "rows": 4}\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /data/exports-2024-06.tar.gz)"
