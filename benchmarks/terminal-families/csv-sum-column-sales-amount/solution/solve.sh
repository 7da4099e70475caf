#!/bin/bash
set -e
python3 - <<'PY'
import csv
total = sum(float(row['amount']) for row in csv.DictReader(open('/app/sales.csv')))
open('/app/total.txt', 'w').write(f'{int(total)}\n' if total == int(total) else f'{total:.2f}\n')
PY
