#!/bin/bash
set -e
cd /app
mkdir -p /app
cat > /app/config.json <<'EOF'
{
  "name": "shop-api",
  "version": "2.4.1",
  "database": {
    "host": "db-primary.internal",
    "port": 5432,
    "name": "shop",
    "pool": {
      "min": 2,
      "max": 10
    }
  },
  "debug": false
}
EOF
