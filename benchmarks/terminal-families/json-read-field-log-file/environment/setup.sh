#!/bin/bash
set -e
cd /app
mkdir -p /etc/myapp /root
cat > /etc/myapp/config.json <<'EOF'
{
  "server": {
    "listen": "0.0.0.0:9000",
    "workers": 4
  },
  "logging": {
    "level": "warning",
    "file": "/var/log/myapp/app.log",
    "rotate": true
  }
}
EOF
