#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /opt/jobs/schedule.txt)"
python3 - <<'PY'
with open('/opt/jobs/schedule.txt', 'w') as f:
    f.write('# m h dom mon dow command\n0 2 * * * /opt/jobs/backup.sh\n\t \n30 2 * * * /opt/jobs/rotate.sh\n\n   \n*/15 * * * * /opt/jobs/poll.sh\n\t\n0 6 * * 1 /opt/jobs/report.sh\n')
PY
mkdir -p "$(dirname /tmp/schedule_noblank.txt)"
