#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/home/dev/svc/client.json'))
d["http"]["timeout"] = 45
json.dump(d, open('/home/dev/svc/client.json', 'w'), indent=2)
PY
