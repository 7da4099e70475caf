#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/opt/tools'
files = {'bin/deploy': 'bin/deploy: sample content\n', 'bin/backup': 'bin/backup: sample content\n', 'lib/common.sh': 'lib/common.sh: sample content\n', 'lib/helpers/log.sh': 'lib/helpers/log.sh: sample content\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
chmod 644 /opt/tools/bin/deploy
chmod 600 /opt/tools/bin/backup
chmod 640 /opt/tools/lib/common.sh
chmod 644 /opt/tools/lib/helpers/log.sh
mkdir -p /opt/tools/lib/helpers
chmod 750 /opt/tools/lib/helpers
mkdir -p /opt/tools/bin
chmod 750 /opt/tools/bin
mkdir -p /opt/tools/lib
chmod 700 /opt/tools/lib
mkdir -p /opt/tools
chmod 700 /opt/tools
