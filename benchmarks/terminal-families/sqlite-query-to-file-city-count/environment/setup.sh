#!/bin/bash
set -e
cd /app
mkdir -p /home/dev
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/home/dev/crm.db')
db.executescript('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);')
db.executemany('INSERT INTO customers VALUES (?, ?, ?)', [(1, 'Ivo Novak', 'Braga'), (2, 'Lena Novak', 'Aveiro'), (3, 'Farah Nakamura', 'Evora'), (4, 'Ana Silva', 'Coimbra'), (5, 'Elif Moreau', 'Lisbon'), (6, 'Ivo Kowalski', 'Coimbra'), (7, 'Chloe Ortiz', 'Braga'), (8, 'Dmitri Okafor', 'Coimbra'), (9, 'Lena Ortiz', 'Faro'), (10, 'Jun Kowalski', 'Braga'), (11, 'Elif Moreau', 'Porto'), (12, 'Chloe Silva', 'Porto'), (13, 'Lena Kowalski', 'Faro'), (14, 'Chloe Moreau', 'Evora'), (15, 'Farah Haddad', 'Aveiro'), (16, 'Hana Okafor', 'Braga'), (17, 'Goran Haddad', 'Braga'), (18, 'Ivo Ortiz', 'Faro'), (19, 'Kofi Lund', 'Faro'), (20, 'Kofi Novak', 'Lisbon'), (21, 'Jun Ortiz', 'Braga'), (22, 'Farah Okafor', 'Evora'), (23, 'Dmitri Haddad', 'Evora'), (24, 'Kofi Haddad', 'Aveiro'), (25, 'Ben Ortiz', 'Evora'), (26, 'Ana Lund', 'Faro'), (27, 'Farah Novak', 'Aveiro'), (28, 'Ivo Haddad', 'Lisbon'), (29, 'Ana Haddad', 'Faro'), (30, 'Elif Kowalski', 'Coimbra')])
db.commit()
db.close()
PY
