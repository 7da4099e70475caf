#!/bin/bash
set -e
cd /app
mkdir -p /srv/units /srv/worker
mkdir -p /srv/worker/bin
printf '#!/bin/sh\nexec sleep 3600\n' > /srv/worker/bin/worker
chmod 755 /srv/worker/bin/worker
