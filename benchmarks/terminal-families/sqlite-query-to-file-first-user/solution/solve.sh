#!/bin/bash
set -e
sqlite3 /data/app.sqlite "SELECT username FROM users ORDER BY created_at LIMIT 1;" > /data/first_user.txt
