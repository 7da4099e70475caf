#!/bin/bash
set -e
sqlite3 /data/orders.db "UPDATE orders SET status = 'shipped' WHERE status = 'packed' AND carrier = 'DHL';"
