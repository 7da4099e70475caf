#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/srv/app/releases/1.4.0'
files = {'VERSION': '1.4.0\n', 'bin/run': '#!/bin/sh\necho running 1.4.0\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
python3 - <<'PY'
import os
base = '/srv/app/releases/1.5.0'
files = {'VERSION': '1.5.0\n', 'bin/run': '#!/bin/sh\necho running 1.5.0\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p /srv/app
ln -s /srv/app/releases/1.4.0 /srv/app/current
