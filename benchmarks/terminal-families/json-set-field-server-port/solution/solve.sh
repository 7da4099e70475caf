#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/app/config.json'))
d["server"]["port"] = 8080
json.dump(d, open('/app/config.json', 'w'), indent=2)
PY
