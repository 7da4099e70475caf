#!/bin/bash
set -e
sqlite3 /app/metrics/metrics.db "SELECT MIN(value) FROM readings WHERE sensor = 'temp-2';" > /app/metrics/temp2_min.txt
