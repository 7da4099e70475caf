#!/bin/bash
set -e
cd /app
mkdir -p /etc/flags
cat > /etc/flags/flags.json <<'EOF'
{"zeta_search":true,"alpha_checkout":false,"rollout":{"percent":25,"regions":["eu","us"]},"owner":"platform-team"}
EOF
