#!/bin/bash
set -e
sqlite3 /var/lib/tasks/tasks.db "UPDATE tasks SET owner = 'maria' WHERE owner IS NULL;"
