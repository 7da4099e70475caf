#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/home/alice/notes'
files = {'todo.md': '- renew certificate\n- review PR 42\n', 'meetings/2024-06-03.md': '# Standup\nAll green.\n', 'meetings/2024-06-10.md': '# Planning\nSprint 14 scope agreed.\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /home/alice/backup/notes.tar.gz)"
