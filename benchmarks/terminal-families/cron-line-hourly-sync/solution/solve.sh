#!/bin/bash
set -e
printf '%s\n' '20 * * * * /app/bin/sync.sh --quiet' > /app/cron/sync
