#!/bin/bash
set -e
printf '%s\n' '30 2 * * * /app/bin/backup.sh' > /app/cron/backup
