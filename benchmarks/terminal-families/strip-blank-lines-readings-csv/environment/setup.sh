#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /data/raw/readings.csv)"
python3 - <<'PY'
with open('/data/raw/readings.csv', 'w') as f:
    f.write('sensor,time,celsius\ns1,08:00,21.4\n\ns1,08:05,21.6\n  \ns2,08:00,19.9\n\t\ns2,08:05,20.1\n    \t\n\ns3,08:00,23.0\n')
PY
mkdir -p "$(dirname /data/readings.csv)"
