#!/bin/bash
set -e
python3 - <<'PY'
import csv
total = sum(float(row['quantity']) for row in csv.DictReader(open('/srv/shop/orders.csv')))
open('/srv/shop/qty_sum.txt', 'w').write(f'{int(total)}\n' if total == int(total) else f'{total:.2f}\n')
PY
