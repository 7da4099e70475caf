#!/bin/bash
set -e
cd /app
mkdir -p /data
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/data/orders.db')
db.executescript('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, status TEXT NOT NULL, carrier TEXT NOT NULL);')
db.executemany('INSERT INTO orders VALUES (?, ?, ?, ?)', [(1000, 'Ana Ortiz', 'packed', 'DHL'), (1001, 'Ben Berg', 'shipped', 'UPS'), (1002, 'Chloe Nakamura', 'packed', 'DHL'), (1003, 'Dmitri Novak', 'packed', 'GLS'), (1004, 'Elif Okafor', 'shipped', 'DHL'), (1005, 'Farah Silva', 'packed', 'UPS'), (1006, 'Goran Haddad', 'packed', 'DHL'), (1007, 'Hana Moreau', 'shipped', 'GLS'), (1008, 'Ivo Kowalski', 'packed', 'DHL'), (1009, 'Jun Lund', 'packed', 'UPS'), (1010, 'Kofi Ortiz', 'shipped', 'DHL'), (1011, 'Lena Berg', 'packed', 'GLS')])
db.commit()
db.close()
PY
