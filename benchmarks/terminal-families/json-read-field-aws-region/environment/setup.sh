#!/bin/bash
set -e
cd /app
mkdir -p /app/infra
cat > /app/infra/terraform.json <<'EOF'
{
  "provider": {
    "aws": {
      "region": "eu-central-1",
      "profile": "staging"
    }
  },
  "backend": {
    "bucket": "tf-state-acme",
    "region": "us-east-1",
    "encrypt": true
  }
}
EOF
