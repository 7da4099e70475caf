#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/srv/db'
files = {'schema.sql': 'sample schema.sql\n', 'schema.sql.gz': 'sample schema.sql.gz\n', 'migrations/0001_init.sql': 'sample migrations/0001_init.sql\n', 'migrations/0002_users.sql': 'sample migrations/0002_users.sql\n', 'migrations/legacy/0000_import.sql': 'sample migrations/legacy/0000_import.sql\n', 'migrations/legacy/notes.md': 'sample migrations/legacy/notes.md\n', 'seeds/dev.sql': 'sample seeds/dev.sql\n', 'seeds/dev.sqlite': 'sample seeds/dev.sqlite\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /tmp/sql_files.txt)"
