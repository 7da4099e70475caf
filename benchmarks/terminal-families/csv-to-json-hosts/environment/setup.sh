#!/bin/bash
set -e
cd /app
mkdir -p /etc/inventory
cat > /etc/inventory/hosts.csv <<'EOF'
hostname,ip,cpus,memory_gb,role
web-1,10.0.0.11,4,8,web
web-2,10.0.0.12,4,8,web
db-1,10.0.1.5,16,64,database
cache-1,10.0.2.9,2,4,cache
EOF
