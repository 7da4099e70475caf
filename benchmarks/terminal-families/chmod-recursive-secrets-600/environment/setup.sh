#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/etc/myapp/secrets'
files = {'api.key': 'api.key: sample content\n', 'db/password': 'db/password: sample content\n', 'tls/server.key': 'tls/server.key: sample content\n', 'tls/old/server.key': 'tls/old/server.key: sample content\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
chmod 644 /etc/myapp/secrets/api.key
chmod 664 /etc/myapp/secrets/db/password
chmod 644 /etc/myapp/secrets/tls/server.key
chmod 666 /etc/myapp/secrets/tls/old/server.key
mkdir -p /etc/myapp/secrets/tls/old
chmod 751 /etc/myapp/secrets/tls/old
mkdir -p /etc/myapp/secrets/db
chmod 751 /etc/myapp/secrets/db
mkdir -p /etc/myapp/secrets/tls
chmod 755 /etc/myapp/secrets/tls
mkdir -p /etc/myapp/secrets
chmod 755 /etc/myapp/secrets
