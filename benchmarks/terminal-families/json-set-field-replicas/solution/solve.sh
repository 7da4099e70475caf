#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/app/deploy/app.json'))
d["spec"]["replicas"] = 5
json.dump(d, open('/app/deploy/app.json', 'w'), indent=2)
PY
