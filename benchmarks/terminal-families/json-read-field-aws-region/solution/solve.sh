#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/app/infra/terraform.json'))
open('/app/infra/region.txt', 'w').write(d["provider"]["aws"]["region"] + '\n')
PY
