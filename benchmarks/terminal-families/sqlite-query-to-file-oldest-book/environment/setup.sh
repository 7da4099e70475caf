#!/bin/bash
set -e
cd /app
mkdir -p /root
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/root/library.db')
db.executescript('CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author TEXT NOT NULL, year INTEGER NOT NULL);')
db.executemany('INSERT INTO books VALUES (?, ?, ?, ?)', [(1, 'Dune', 'Frank Herbert', 1965), (2, 'Neuromancer', 'William Gibson', 1984), (3, 'The Left Hand of Darkness', 'Ursula K. Le Guin', 1969), (4, 'Foundation', 'Isaac Asimov', 1951), (5, 'Kindred', 'Octavia E. Butler', 1979), (6, 'Hyperion', 'Dan Simmons', 1989), (7, 'The Dispossessed', 'Ursula K. Le Guin', 1974), (8, 'Solaris', 'Stanislaw Lem', 1961)])
db.commit()
db.close()
PY
