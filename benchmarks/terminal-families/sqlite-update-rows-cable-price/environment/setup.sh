#!/bin/bash
set -e
cd /app
mkdir -p /srv/shop
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/srv/shop/shop.db')
db.executescript('CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, name TEXT NOT NULL, category TEXT NOT NULL, price_cents INTEGER NOT NULL);')
db.executemany('INSERT INTO products VALUES (?, ?, ?, ?, ?)', [(1, 'CB-USB', 'USB cable', 'cables', 799), (2, 'KB-200', 'Mechanical keyboard', 'input', 8900), (3, 'CB-HDMI', 'HDMI cable', 'cables', 1299), (4, 'MS-110', 'Wireless mouse', 'input', 2450), (5, 'CB-ETH', 'Ethernet cable 5m', 'cables', 1050), (6, 'MN-270', '27-inch monitor', 'displays', 24900), (7, 'HB-4', 'USB hub', 'accessories', 1999)])
db.commit()
db.close()
PY
