#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/data/model/params.json'))
d["training"]["learning_rate"] = 0.0005
json.dump(d, open('/data/model/params.json', 'w'), indent=2)
PY
