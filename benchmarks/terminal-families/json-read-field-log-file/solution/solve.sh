#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/etc/myapp/config.json'))
open('/root/logfile_path.txt', 'w').write(d["logging"]["file"] + '\n')
PY
