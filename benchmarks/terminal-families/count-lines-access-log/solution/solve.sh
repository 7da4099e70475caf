#!/bin/bash
set -e
wc -l < /app/logs/access.log > /app/line_count.txt
