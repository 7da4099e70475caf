#!/bin/bash
set -e
sqlite3 /root/library.db "SELECT title FROM books ORDER BY year LIMIT 1;" > /root/oldest_title.txt
