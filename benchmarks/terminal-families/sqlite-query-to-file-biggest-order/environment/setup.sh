#!/bin/bash
set -e
cd /app
mkdir -p /var/lib/shop
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/var/lib/shop/shop.db')
db.executescript('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total_cents INTEGER NOT NULL, placed_at TEXT NOT NULL);')
db.executemany('INSERT INTO orders VALUES (?, ?, ?, ?)', [(1, 'Lena Silva', 88083, '2024-02-01'), (2, 'Chloe Okafor', 67529, '2024-02-02'), (3, 'Hana Ortiz', 56735, '2024-02-03'), (4, 'Farah Lund', 52779, '2024-02-04'), (5, 'Elif Nakamura', 34749, '2024-02-05'), (6, 'Hana Okafor', 4745, '2024-02-06'), (7, 'Lena Kowalski', 45129, '2024-02-07'), (8, 'Goran Lund', 80491, '2024-02-08'), (9, 'Dmitri Haddad', 55951, '2024-02-09'), (10, 'Dmitri Okafor', 63303, '2024-02-10'), (11, 'Kofi Moreau', 55399, '2024-02-11'), (12, 'Jun Novak', 2775, '2024-02-12'), (13, 'Kofi Lund', 42776, '2024-02-13'), (14, 'Lena Nakamura', 33519, '2024-02-14'), (15, 'Jun Ortiz', 20156, '2024-02-15'), (16, 'Farah Haddad', 13524, '2024-02-16'), (17, 'Dmitri Silva', 79572, '2024-02-17'), (18, 'Lena Kowalski', 5108, '2024-02-18')])
db.commit()
db.close()
PY
