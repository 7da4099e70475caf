#!/bin/bash
set -e
cd /app
mkdir -p /srv/billing
cat > /srv/billing/settings.json <<'EOF'
{
  "service": {
    "name": "billing",
    "upstream": {
      "url": "https://payments.example.com:8443/v2/charge",
      "timeout_ms": 2500
    }
  },
  "retries": 3,
  "currency": "EUR"
}
EOF
