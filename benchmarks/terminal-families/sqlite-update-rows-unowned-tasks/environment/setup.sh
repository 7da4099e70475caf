#!/bin/bash
set -e
cd /app
mkdir -p /var/lib/tasks
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/var/lib/tasks/tasks.db')
db.executescript('CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, owner TEXT, priority INTEGER);')
db.executemany('INSERT INTO tasks VALUES (?, ?, ?, ?)', [(1, 'Rotate TLS certs', 'tomas', 1), (2, 'Update README', None, 2), (3, 'Fix flaky test', 'li', 3), (4, 'Bump base image', None, 1), (5, 'Clean old backups', 'tomas', 2), (6, 'Review alerts', None, 3), (7, 'Write changelog', 'oskar', 1)])
db.commit()
db.close()
PY
