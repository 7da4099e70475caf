#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/opt/python/3.10'
files = {'VERSION': '3.10\n', 'bin/run': '#!/bin/sh\necho running 3.10\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
python3 - <<'PY'
import os
base = '/opt/python/3.12'
files = {'VERSION': '3.12\n', 'bin/run': '#!/bin/sh\necho running 3.12\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p /opt/python
ln -s /opt/python/3.10 /opt/python/default
