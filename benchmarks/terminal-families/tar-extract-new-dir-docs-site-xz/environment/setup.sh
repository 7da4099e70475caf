#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/dev/docs-site.tar.xz)"
python3 - <<'PY'
import os
base = '/tmp/build-docs-site-xz/site'
files = {'index.html': '<!doctype html>\n<title>Docs</title>\n<h1>Project docs</h1>\n', 'guide/install.html': '<h2>Install</h2>\n<p>pip install tool</p>\n', 'assets/style.css': 'body { font-family: sans-serif; margin: 2em; }\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
tar -cJf /home/dev/docs-site.tar.xz -C /tmp/build-docs-site-xz site
rm -rf /tmp/build-docs-site-xz
