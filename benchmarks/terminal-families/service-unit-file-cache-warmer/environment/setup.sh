#!/bin/bash
set -e
cd /app
mkdir -p /app/ops /app/ops
mkdir -p /app/ops
printf '#!/bin/sh\nexec sleep 3600\n' > /app/ops/warm_cache.sh
chmod 755 /app/ops/warm_cache.sh
