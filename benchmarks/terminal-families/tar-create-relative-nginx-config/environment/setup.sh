#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/app/config/nginx'
files = {'nginx.conf': 'user www-data;\nworker_processes 2;\ninclude /etc/nginx/conf.d/*.conf;\n', 'conf.d/api.conf': 'upstream api { server 127.0.0.1:9000; }\n', 'conf.d/static.conf': 'server { listen 8081; root /srv/static; }\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /app/nginx-config.tar.gz)"
