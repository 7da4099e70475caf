#!/bin/bash
set -e
cd /app
mkdir -p /home/dev/svc
cat > /home/dev/svc/client.json <<'EOF'
{
  "base_url": "https://api.example.com",
  "http": {
    "timeout": "30",
    "retries": 2,
    "verify_tls": true
  },
  "user_agent": "svc-client/1.2"
}
EOF
