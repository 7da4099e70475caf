#!/bin/bash
set -e
printf '%s\n' '5 23 1 * * /usr/sbin/logrotate /app/config/logrotate.conf' > /app/config/cron/rotate
