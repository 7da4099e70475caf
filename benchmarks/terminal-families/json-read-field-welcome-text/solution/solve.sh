#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/app/i18n/messages.json'))
open('/app/i18n/welcome.txt', 'w').write(d["messages"]["welcome"] + '\n')
PY
