#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/app/config.json'))
open('/app/db_host.txt', 'w').write(d["database"]["host"] + '\n')
PY
