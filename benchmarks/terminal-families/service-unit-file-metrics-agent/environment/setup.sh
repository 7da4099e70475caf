#!/bin/bash
set -e
cd /app
mkdir -p /opt/metrics /opt/metrics
mkdir -p /opt/metrics
printf '#!/bin/sh\nexec sleep 3600\n' > /opt/metrics/agent.sh
chmod 755 /opt/metrics/agent.sh
