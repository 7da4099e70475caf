#!/bin/bash
set -e
cd /app
mkdir -p /opt/deploy
cat > /opt/deploy/manifest.json <<'EOF'
{
  "name": "frontend",
  "image": {
    "name": "registry.local/web/frontend",
    "tag": "1.19.3-alpine"
  },
  "replicas": 3,
  "ports": [
    {
      "container": 80,
      "host": 8080
    }
  ]
}
EOF
