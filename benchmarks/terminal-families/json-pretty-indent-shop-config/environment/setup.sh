#!/bin/bash
set -e
cd /app
mkdir -p /app
cat > /app/compact.json <<'EOF'
{"name":"shop","version":3,"features":["cart","search","wishlist"],"db":{"host":"db.internal","port":5432,"ssl":true}}
EOF
