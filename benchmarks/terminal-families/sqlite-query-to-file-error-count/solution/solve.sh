#!/bin/bash
set -e
sqlite3 /app/logs.db "SELECT COUNT(*) FROM events WHERE level = 'ERROR';" > /app/error_count.txt
