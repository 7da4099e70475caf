#!/bin/bash
set -e
sqlite3 /app/app.db "DELETE FROM logs;"
