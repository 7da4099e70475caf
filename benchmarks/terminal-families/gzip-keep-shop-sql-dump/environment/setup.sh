#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/backups/shop-2024-06-01.sql)"
python3 - <<'PY'
text = "BEGIN TRANSACTION;\nCREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL);\n" + "".join(
    f"INSERT INTO products VALUES({i},'product {i}',{i * 1.25:.2f});\n" for i in range(1, 1201)) + "COMMIT;\n"
with open('/srv/backups/shop-2024-06-01.sql', "w") as f:
    f.write(text)
PY
