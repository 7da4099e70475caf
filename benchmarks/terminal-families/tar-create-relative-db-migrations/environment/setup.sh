#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/opt/service/db/migrations'
files = {'001_create_users.sql': 'CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL);\n', '002_add_orders.sql': 'CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER);\n', 'seed/dev_users.sql': "INSERT INTO users (email) VALUES ('dev@example.com');\n"}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /opt/service/migrations.tgz)"
