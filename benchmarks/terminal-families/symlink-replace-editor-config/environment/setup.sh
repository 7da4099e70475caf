#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/home/dev/dotfiles/editor-v1'
files = {'config.yml': 'version: editor-v1\nlisten: 0.0.0.0:8080\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
python3 - <<'PY'
import os
base = '/home/dev/dotfiles/editor-v2'
files = {'config.yml': 'version: editor-v2\nlisten: 0.0.0.0:8080\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p /home/dev/.config
ln -s /home/dev/dotfiles/editor-v1 /home/dev/.config/editor
