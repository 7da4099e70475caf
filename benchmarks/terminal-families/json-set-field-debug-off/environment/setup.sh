#!/bin/bash
set -e
cd /app
mkdir -p /srv/web
cat > /srv/web/settings.json <<'EOF'
{
  "debug": true,
  "debug_port": 9229,
  "log_level": "debug",
  "features": {
    "beta": true,
    "debug_toolbar": true
  }
}
EOF
