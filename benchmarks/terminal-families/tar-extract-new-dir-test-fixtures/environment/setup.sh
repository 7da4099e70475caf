#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/tests/fixtures.tar.gz)"
python3 - <<'PY'
import os
base = '/tmp/build-test-fixtures/fixtures'
files = {'users.json': '[{"id": 1, "name": "ada"}, {"id": 2, "name": "grace"}]\n', 'orders/small.csv': 'id,user_id,total\n1,1,9.99\n2,2,19.50\n', 'orders/empty.csv': 'id,user_id,total\n', 'expected/report.txt': 'users: 2\norders: 2\ntotal: 29.49\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
tar -czf /app/tests/fixtures.tar.gz -C /tmp/build-test-fixtures fixtures
rm -rf /tmp/build-test-fixtures
