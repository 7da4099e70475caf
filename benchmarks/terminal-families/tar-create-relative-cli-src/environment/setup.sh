#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/home/dev/projects/cli-tool/src'
files = {'main.py': "import sys\n\nprint('cli-tool', sys.argv[1:])\n", 'commands/__init__.py': '', 'commands/sync.py': 'def run(args):\n    return 0\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /home/dev/src.tar.gz)"
