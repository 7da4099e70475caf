#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/srv/billing/settings.json'))
open('/srv/billing/upstream.txt', 'w').write(d["service"]["upstream"]["url"] + '\n')
PY
