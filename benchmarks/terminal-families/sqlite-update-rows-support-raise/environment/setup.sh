#!/bin/bash
set -e
cd /app
mkdir -p /home/hr
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/home/hr/payroll.db')
db.executescript('CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT NOT NULL, dept TEXT NOT NULL, salary INTEGER NOT NULL);')
db.executemany('INSERT INTO staff VALUES (?, ?, ?, ?)', [(1, 'Goran Ortiz', 'Support', 77000), (2, 'Ivo Berg', 'Engineering', 40000), (3, 'Ivo Nakamura', 'Sales', 42000), (4, 'Ana Novak', 'Support', 39000), (5, 'Dmitri Okafor', 'Engineering', 46000), (6, 'Ben Silva', 'Sales', 48000), (7, 'Elif Haddad', 'Support', 70000), (8, 'Lena Moreau', 'Engineering', 85000), (9, 'Elif Kowalski', 'Sales', 66000), (10, 'Ana Lund', 'Support', 54000)])
db.commit()
db.close()
PY
