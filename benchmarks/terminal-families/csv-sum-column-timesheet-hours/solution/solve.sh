#!/bin/bash
set -e
python3 - <<'PY'
import csv
total = sum(float(row['hours']) for row in csv.DictReader(open('/home/pm/timesheet.csv')))
open('/home/pm/hours_total.txt', 'w').write(f'{int(total)}\n' if total == int(total) else f'{total:.2f}\n')
PY
