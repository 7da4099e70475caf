#!/bin/bash
set -e
tail -n +2 /app/orders.csv | cut -d, -f2 | sort -u | wc -l > /app/customer_count.txt
