#!/bin/bash
set -e
python3 - <<'PY'
import csv, json
rows = list(csv.DictReader(open('/srv/catalog/products.csv', encoding='utf-8')))
for row in rows:
    for col in ['price', 'stock']:
        row[col] = float(row[col]) if '.' in row[col] else int(row[col])
json.dump(rows, open('/srv/catalog/products.json', 'w', encoding='utf-8'), indent=2, ensure_ascii=False)
PY
