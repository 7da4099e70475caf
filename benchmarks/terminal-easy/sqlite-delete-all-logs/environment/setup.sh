#!/bin/bash
set -e
python3 - <<'EOF'
import sqlite3
db = sqlite3.connect("/app/app.db")
db.executescript("""
CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE logs (id INTEGER PRIMARY KEY, level TEXT NOT NULL, message TEXT NOT NULL);
CREATE TABLE temp_data (id INTEGER PRIMARY KEY, value INTEGER);
""")
db.executemany("INSERT INTO users VALUES (?, ?)", [(1, "ada"), (2, "alan"), (3, "grace")])
db.executemany("INSERT INTO logs VALUES (?, ?, ?)", [
    (1, "INFO", "started"), (2, "WARN", "disk at 80%"), (3, "INFO", "request served"), (4, "ERROR", "timeout")])
db.executemany("INSERT INTO temp_data VALUES (?, ?)", [(1, 10), (2, 20)])
db.commit()
EOF
