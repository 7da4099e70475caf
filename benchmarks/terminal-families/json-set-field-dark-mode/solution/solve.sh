#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/opt/app/features.json'))
d["features"]["dark_mode"] = True
json.dump(d, open('/opt/app/features.json', 'w'), indent=2)
PY
