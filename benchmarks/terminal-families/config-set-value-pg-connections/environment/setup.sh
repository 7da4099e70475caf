#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /etc/pgtune/custom.conf)"
cat > /etc/pgtune/custom.conf <<'__END_OF_FILE__'
# tuned for 8 GB RAM
listen_addresses = '*'
#max_connections = 50
max_connections = 100
superuser_max_connections = 3
shared_buffers = 2GB
work_mem = 16MB
__END_OF_FILE__
