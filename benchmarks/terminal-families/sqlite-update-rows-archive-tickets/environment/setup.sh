#!/bin/bash
set -e
cd /app
mkdir -p /opt/helpdesk
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/opt/helpdesk/tickets.db')
db.executescript('CREATE TABLE tickets (id INTEGER PRIMARY KEY, title TEXT NOT NULL, status TEXT NOT NULL, closed_at TEXT);')
db.executemany('INSERT INTO tickets VALUES (?, ?, ?, ?)', [(1, 'Login fails', 'closed', '2024-03-10'), (2, 'Slow dashboard', 'open', None), (3, 'Typo in footer', 'pending', None), (4, 'Export to CSV broken', 'closed', '2024-03-13'), (5, 'Password reset mail', 'closed', '2024-03-14'), (6, 'Dark mode colors', 'open', None), (7, 'API rate limit', 'pending', None), (8, 'Broken link on pricing', 'closed', '2024-03-17')])
db.commit()
db.close()
PY
