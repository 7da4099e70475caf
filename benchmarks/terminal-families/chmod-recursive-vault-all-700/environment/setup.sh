#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/home/ops/vault'
files = {'index.txt': 'index.txt: sample content\n', 'keys/prod.pem': 'keys/prod.pem: sample content\n', 'keys/old/prod-2022.pem': 'keys/old/prod-2022.pem: sample content\n', 'notes/rotation.md': 'notes/rotation.md: sample content\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
chmod 644 /home/ops/vault/index.txt
chmod 644 /home/ops/vault/keys/prod.pem
chmod 664 /home/ops/vault/keys/old/prod-2022.pem
chmod 600 /home/ops/vault/notes/rotation.md
mkdir -p /home/ops/vault/keys/old
chmod 775 /home/ops/vault/keys/old
mkdir -p /home/ops/vault/keys
chmod 755 /home/ops/vault/keys
mkdir -p /home/ops/vault/notes
chmod 755 /home/ops/vault/notes
mkdir -p /home/ops/vault
chmod 755 /home/ops/vault
