#!/bin/bash
set -e
cd /app
mkdir -p /home/dev/cron /home/dev/bin
printf '#!/bin/sh\necho "run $(date)"\n' > /home/dev/bin/remind.sh
chmod 755 /home/dev/bin/remind.sh
