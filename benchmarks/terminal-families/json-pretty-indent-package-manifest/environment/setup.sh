#!/bin/bash
set -e
cd /app
mkdir -p /home/dev/app
cat > /home/dev/app/package.min.json <<'EOF'
{"version":"1.4.0","name":"ledger-ui","private":true,"scripts":{"start":"vite","build":"vite build","lint":"eslint src"},"dependencies":{"vue":"3.4.21","pinia":"2.1.7"}}
EOF
