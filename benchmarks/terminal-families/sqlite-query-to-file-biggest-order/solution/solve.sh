#!/bin/bash
set -e
sqlite3 /var/lib/shop/shop.db "SELECT customer FROM orders ORDER BY total_cents DESC LIMIT 1;" > /var/lib/shop/top_customer.txt
