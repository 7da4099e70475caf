#!/bin/bash
set -e
python3 - <<'PY'
import csv
total = sum(float(row['bytes_out']) for row in csv.DictReader(open('/var/log/transfer/transfers.csv')))
open('/var/log/transfer/out_total.txt', 'w').write(f'{int(total)}\n' if total == int(total) else f'{total:.2f}\n')
PY
