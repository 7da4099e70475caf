#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/data/warehouse'
files = {'customers.csv': 'sample customers.csv\n', 'customers.csv.bak': 'sample customers.csv.bak\n', 'raw/2024/orders.csv': 'sample raw/2024/orders.csv\n', 'raw/2024/orders.tsv': 'sample raw/2024/orders.tsv\n', 'raw/2024/06/returns.csv': 'sample raw/2024/06/returns.csv\n', 'staging/products.csv': 'sample staging/products.csv\n', 'staging/products.xlsx': 'sample staging/products.xlsx\n', 'README': 'sample README\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /data/csv_inventory.txt)"
