#!/bin/bash
set -e
cd /app
mkdir -p /etc/pgbouncer
cat > /etc/pgbouncer/pool.json <<'EOF'
{
  "listen_port": 6432,
  "pool": {
    "mode": "transaction",
    "max_client_conn": 100,
    "default_pool_size": 20
  },
  "auth_type": "md5"
}
EOF
