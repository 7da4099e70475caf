#!/bin/bash
set -e
cd /app
mkdir -p /data
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/data/app.sqlite')
db.executescript('CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT UNIQUE NOT NULL, email TEXT, created_at TEXT NOT NULL);')
db.executemany('INSERT INTO users VALUES (?, ?, ?, ?)', [(1, 'zoe', 'zoe@example.net', '2023-10-18 09:29:00'), (2, 'marek', 'marek@example.net', '2023-08-21 09:36:00'), (3, 'ines', 'ines@example.net', '2023-07-10 09:57:00'), (4, 'tariq', 'tariq@example.net', '2023-03-01 09:56:00'), (5, 'bjorn', 'bjorn@example.net', '2023-08-15 09:30:00'), (6, 'keiko', 'keiko@example.net', '2023-03-24 09:19:00'), (7, 'amara', 'amara@example.net', '2023-08-24 09:39:00'), (8, 'luca', 'luca@example.net', '2023-03-08 09:03:00'), (9, 'noor', 'noor@example.net', '2023-08-13 09:28:00'), (10, 'felix', 'felix@example.net', '2023-06-10 09:29:00'), (11, 'sana', 'sana@example.net', '2023-05-03 09:54:00'), (12, 'olaf', 'olaf@example.net', '2023-03-28 09:23:00')])
db.commit()
db.close()
PY
