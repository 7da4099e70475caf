#!/bin/bash
set -e
sqlite3 /app/users.db "UPDATE users SET active = 0 WHERE last_login < '2024-01-01';"
