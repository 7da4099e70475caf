#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/db/migrate.sql)"
python3 - <<'PY'
with open('/srv/db/migrate.sql', 'w') as f:
    f.write('BEGIN;\n\nCREATE TABLE invoices (\n    id INTEGER PRIMARY KEY,\n    \n    total_cents INTEGER NOT NULL,\n\t\n    issued_at TEXT\n);\n  \n\nCREATE INDEX invoices_issued ON invoices (issued_at);\n \t \nCOMMIT;\n')
PY
mkdir -p "$(dirname /srv/db/migrate_compact.sql)"
