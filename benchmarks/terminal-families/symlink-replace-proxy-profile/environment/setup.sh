#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/etc/myproxy/profiles/staging'
files = {'config.yml': 'version: staging\nlisten: 0.0.0.0:8080\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
python3 - <<'PY'
import os
base = '/etc/myproxy/profiles/production'
files = {'config.yml': 'version: production\nlisten: 0.0.0.0:8080\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p /etc/myproxy
ln -s /etc/myproxy/profiles/staging /etc/myproxy/active
