#!/bin/bash
set -e
cd /app
mkdir -p /srv/hr
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/srv/hr/staff.db')
db.executescript('CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT NOT NULL, department TEXT NOT NULL, salary INTEGER NOT NULL);')
db.executemany('INSERT INTO employees VALUES (?, ?, ?, ?)', [(1, 'Lena Nakamura', 'Engineering', 77000), (2, 'Ivo Haddad', 'Sales', 63000), (3, 'Hana Silva', 'Support', 53000), (4, 'Hana Silva', 'Finance', 59000), (5, 'Lena Silva', 'Engineering', 112000), (6, 'Jun Ortiz', 'Sales', 79000), (7, 'Lena Kowalski', 'Support', 120000), (8, 'Dmitri Lund', 'Finance', 111000), (9, 'Kofi Nakamura', 'Engineering', 106000), (10, 'Chloe Haddad', 'Sales', 63000), (11, 'Lena Kowalski', 'Support', 105000), (12, 'Chloe Lund', 'Finance', 53000), (13, 'Dmitri Okafor', 'Engineering', 109000), (14, 'Ivo Novak', 'Sales', 60000), (15, 'Hana Haddad', 'Support', 107000), (16, 'Hana Berg', 'Finance', 118000), (17, 'Ben Berg', 'Engineering', 105000), (18, 'Ivo Ortiz', 'Sales', 78000), (19, 'Elif Moreau', 'Support', 69000), (20, 'Ivo Okafor', 'Finance', 74000), (21, 'Goran Nakamura', 'Engineering', 92000), (22, 'Ana Kowalski', 'Sales', 103000), (23, 'Elif Silva', 'Support', 65000), (24, 'Ivo Lund', 'Finance', 105000), (25, 'Vera Lund', 'Sales', 151000)])
db.commit()
db.close()
PY
