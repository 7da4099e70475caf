#!/bin/bash
set -e
printf '%s\n' '10 4 * * 0 postgres /usr/local/bin/vacuum-db.sh' > /srv/cron.d/db-vacuum
