#!/bin/bash
set -e
cd /app
mkdir -p /app/deploy
cat > /app/deploy/app.json <<'EOF'
{
  "kind": "Deployment",
  "metadata": {
    "name": "api",
    "namespace": "prod"
  },
  "spec": {
    "replicas": 2,
    "selector": {
      "app": "api"
    },
    "strategy": "RollingUpdate"
  }
}
EOF
