#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/etc/pgbouncer/pool.json'))
d["pool"]["max_client_conn"] = 250
json.dump(d, open('/etc/pgbouncer/pool.json', 'w'), indent=2)
PY
