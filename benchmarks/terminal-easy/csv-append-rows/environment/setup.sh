#!/bin/bash
set -e
printf 'id,name,price\n1,pen,2\n2,book,12\n' > /app/items.csv
printf '3,lamp,30\n4,cup,5\n' > /app/new_items.csv
