#!/bin/bash
set -e
cd /app
mkdir -p /app
cat > /app/config.json <<'EOF'
{
  "server": {
    "host": "0.0.0.0",
    "port": 3000,
    "tls": false
  },
  "log_level": "info",
  "workers": 2
}
EOF
