#!/bin/bash
set -e
cat > /home/dev/units/notes-api.service <<'EOF'
[Unit]
Description=Notes API
After=network.target

[Service]
ExecStart=/usr/bin/node /home/dev/notes-api/index.js
User=dev
WorkingDirectory=/home/dev/notes-api
Environment=NODE_ENV=production
Restart=on-failure

[Install]
WantedBy=multi-user.target
EOF
