#!/bin/bash
set -e
cd /app
mkdir -p /app/catalog
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/app/catalog/books.db')
db.executescript('CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER NOT NULL, on_sale INTEGER NOT NULL DEFAULT 0);')
db.executemany('INSERT INTO books VALUES (?, ?, ?, ?)', [(1, 'Dune', 1965, 0), (2, 'Neuromancer', 1984, 0), (3, 'Snow Crash', 1992, 0), (4, 'Foundation', 1951, 0), (5, 'The Martian', 2011, 0), (6, 'Hyperion', 1989, 0), (7, 'Anathem', 2008, 0), (8, 'Solaris', 1961, 0)])
db.commit()
db.close()
PY
