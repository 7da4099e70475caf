#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/app/build/dist'
files = {'app.js': "console.log('app v3');\n", 'app.css': 'body{margin:0}\n', 'vendor/lib.js': 'export const lib = 1;\n', 'index.html': '<script src="app.js"></script>\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /app/build/dist.tar.gz)"
