#!/bin/bash
set -e
cd /app
mkdir -p /opt/inventory
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('/opt/inventory/stock.db')
db.executescript('CREATE TABLE items (sku TEXT PRIMARY KEY, name TEXT, warehouse TEXT, qty INTEGER);')
db.executemany('INSERT INTO items VALUES (?, ?, ?, ?)', [('P-100', 'bolts', 'north', 420), ('P-101', 'nuts', 'south', 391), ('P-102', 'washers', 'south', 211), ('P-103', 'hinges', 'east', 246), ('P-104', 'brackets', 'north', 161), ('P-105', 'screws', 'east', 320), ('P-106', 'rivets', 'north', 313), ('P-107', 'bolts', 'east', 416), ('P-108', 'nuts', 'north', 28), ('P-109', 'washers', 'south', 180), ('P-110', 'hinges', 'east', 259), ('P-111', 'brackets', 'south', 205), ('P-112', 'screws', 'north', 413), ('P-113', 'rivets', 'south', 479), ('P-114', 'bolts', 'east', 18), ('P-115', 'nuts', 'east', 394), ('P-116', 'washers', 'east', 349), ('P-117', 'hinges', 'east', 315), ('P-118', 'brackets', 'east', 430), ('P-119', 'screws', 'north', 387), ('P-120', 'rivets', 'north', 232)])
db.commit()
db.close()
PY
