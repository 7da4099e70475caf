#!/bin/bash
set -e
cat > /app/ops/cache-warmer.service <<'EOF'
[Unit]
Description=Cache warmer
After=network.target

[Service]
ExecStart=/app/ops/warm_cache.sh
User=nobody
WorkingDirectory=/app/ops
Environment=CACHE_DIR=/var/cache/warmer
Restart=on-failure

[Install]
WantedBy=multi-user.target
EOF
