#!/bin/bash
set -e
sqlite3 /home/dev/crm.db "SELECT COUNT(DISTINCT city) FROM customers;" > /home/dev/city_count.txt
