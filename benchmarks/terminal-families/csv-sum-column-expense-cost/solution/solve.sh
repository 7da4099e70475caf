#!/bin/bash
set -e
python3 - <<'PY'
import csv
total = sum(float(row['cost']) for row in csv.DictReader(open('/app/finance/expenses.csv')))
open('/app/finance/total_cost.txt', 'w').write(f'{int(total)}\n' if total == int(total) else f'{total:.2f}\n')
PY
