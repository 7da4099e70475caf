#!/bin/bash
set -e
cd /app
mkdir -p /srv/cron.d /srv/reports
printf '#!/bin/sh\necho "run $(date)"\n' > /srv/reports/make_report.py
chmod 755 /srv/reports/make_report.py
