#!/bin/bash
set -e
sqlite3 /app/app.db "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);"
