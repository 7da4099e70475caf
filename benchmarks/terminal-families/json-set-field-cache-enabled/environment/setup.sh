#!/bin/bash
set -e
cd /app
mkdir -p /var/lib/cache
cat > /var/lib/cache/cache.json <<'EOF'
{
  "cache": {
    "enabled": false,
    "ttl_seconds": 600,
    "backend": "redis"
  },
  "redis": {
    "host": "127.0.0.1",
    "port": 6379
  }
}
EOF
