#!/bin/bash
set -e
printf '%s\n' '15 7 * * 1 python3 /srv/reports/make_report.py --weekly' > /srv/cron.d/weekly-report
