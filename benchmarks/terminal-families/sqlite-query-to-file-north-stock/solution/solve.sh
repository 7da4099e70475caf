#!/bin/bash
set -e
sqlite3 /opt/inventory/stock.db "SELECT SUM(qty) FROM items WHERE warehouse = 'north';" > /opt/inventory/north_total.txt
