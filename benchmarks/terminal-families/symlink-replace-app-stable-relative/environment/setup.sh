#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/app/builds/build-118'
files = {'config.yml': 'version: build-118\nlisten: 0.0.0.0:8080\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
python3 - <<'PY'
import os
base = '/app/builds/build-131'
files = {'config.yml': 'version: build-131\nlisten: 0.0.0.0:8080\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p /app
ln -s builds/build-118 /app/stable
