#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/etc/myservice'
files = {'main.conf': 'sample main.conf\n', 'main.conf.bak': 'sample main.conf.bak\n', 'conf.d/10-logging.conf': 'sample conf.d/10-logging.conf\n', 'conf.d/20-cache.conf': 'sample conf.d/20-cache.conf\n', 'conf.d/disabled/30-debug.conf': 'sample conf.d/disabled/30-debug.conf\n', 'conf.d/README.txt': 'sample conf.d/README.txt\n', 'tls/server.config': 'sample tls/server.config\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /root/conf_list.txt)"
