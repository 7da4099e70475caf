#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/opt/fixtures'
files = {'users.json': 'sample users.json\n', 'events.jsonl': 'sample events.jsonl\n', 'api/v1/orders.json': 'sample api/v1/orders.json\n', 'api/v1/orders.json5': 'sample api/v1/orders.json5\n', 'api/v2/orders.json': 'sample api/v2/orders.json\n', 'api/v2/.cache.json': 'sample api/v2/.cache.json\n', 'schemas/order.schema.json': 'sample schemas/order.schema.json\n', 'schemas/notes.txt': 'sample schemas/notes.txt\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /opt/json_fixtures.txt)"
