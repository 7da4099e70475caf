#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/srv/web/settings.json'))
d["debug"] = False
json.dump(d, open('/srv/web/settings.json', 'w'), indent=2)
PY
