#!/bin/bash
set -e
tail -n +2 /app/tickets/tickets.csv | cut -d, -f3 | sort -u | wc -l > /app/tickets/assignee_count.txt
