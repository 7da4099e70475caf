#!/bin/bash
set -e
cd /app
mkdir -p /root
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/root/sites.db')
db.executescript('CREATE TABLE servers (id INTEGER PRIMARY KEY, hostname TEXT NOT NULL, region TEXT NOT NULL, ip TEXT NOT NULL);')
db.executemany('INSERT INTO servers VALUES (?, ?, ?, ?)', [(1, 'fra-web-1', 'unassigned', '10.4.0.10'), (2, 'ams-web-1', 'eu-west', '10.4.1.11'), (3, 'fra-db-1', 'unassigned', '10.4.2.12'), (4, 'lon-web-2', 'uk-south', '10.4.3.13'), (5, 'fra-cache-1', 'unassigned', '10.4.4.14'), (6, 'ams-db-1', 'eu-west', '10.4.5.15')])
db.commit()
db.close()
PY
