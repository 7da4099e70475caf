#!/bin/bash
set -e
sqlite3 /srv/shop/shop.db "UPDATE products SET price_cents = 999 WHERE category = 'cables';"
