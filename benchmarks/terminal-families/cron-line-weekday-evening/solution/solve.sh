#!/bin/bash
set -e
printf '%s\n' '45 18 * * 1-5 /home/dev/bin/remind.sh standup' > /home/dev/cron/standup
