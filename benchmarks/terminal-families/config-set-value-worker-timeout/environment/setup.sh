#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/config/worker.conf)"
cat > /app/config/worker.conf <<'__END_OF_FILE__'
# worker settings
queue=default
concurrency=8
timeout=30
# timeout=10
read_timeout=30
connect_timeout=5
__END_OF_FILE__
