#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/opt/deploy/manifest.json'))
open('/opt/deploy/tag.txt', 'w').write(d["image"]["tag"] + '\n')
PY
