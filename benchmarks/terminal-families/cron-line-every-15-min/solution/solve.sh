#!/bin/bash
set -e
printf '%s\n' '*/15 * * * * /opt/monitor/check.sh' > /opt/monitor/cron/healthcheck
