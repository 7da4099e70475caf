#!/bin/bash
set -e
cd /app
mkdir -p /app
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/app/users.db')
db.executescript('CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL, email TEXT, active INTEGER NOT NULL, last_login TEXT);')
db.executemany('INSERT INTO users VALUES (?, ?, ?, ?, ?)', [(1, 'akim', 'akim@corp.example', 1, '2023-01-10'), (2, 'bfox', 'bfox@corp.example', 1, '2024-06-11'), (3, 'cruiz', 'cruiz@corp.example', 1, '2023-11-12'), (4, 'dlee', 'dlee@corp.example', 1, '2024-04-13'), (5, 'emma', 'emma@corp.example', 1, '2023-09-14'), (6, 'fino', 'fino@corp.example', 1, '2024-02-15'), (7, 'gita', 'gita@corp.example', 1, '2023-07-16'), (8, 'hugo', 'hugo@corp.example', 1, '2024-12-17'), (9, 'iris', 'iris@corp.example', 1, '2023-05-18'), (10, 'jonas', 'jonas@corp.example', 1, '2024-10-19')])
db.commit()
db.close()
PY
