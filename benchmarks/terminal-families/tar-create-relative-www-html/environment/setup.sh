#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/var/www/html'
files = {'index.html': '<!doctype html>\n<h1>Welcome</h1>\n', 'about/index.html': '<h1>About us</h1>\n', 'css/main.css': 'h1 { color: #333; }\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /root/html-site.tar.gz)"
