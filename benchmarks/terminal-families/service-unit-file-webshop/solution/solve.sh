#!/bin/bash
set -e
cat > /app/deploy/webshop.service <<'EOF'
[Unit]
Description=Web shop
After=network.target

[Service]
ExecStart=/usr/bin/python3 /opt/webshop/server.py
User=www-data
WorkingDirectory=/opt/webshop
Environment=PORT=8080
Restart=always

[Install]
WantedBy=multi-user.target
EOF
