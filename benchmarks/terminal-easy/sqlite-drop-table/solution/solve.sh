#!/bin/bash
set -e
sqlite3 /app/app.db "DROP TABLE temp_data;"
