#!/bin/bash
set -e
cat > /srv/units/queue-worker.service <<'EOF'
[Unit]
Description=Queue worker
After=network.target

[Service]
ExecStart=/srv/worker/bin/worker --queue default
User=worker
WorkingDirectory=/srv/worker
Environment=QUEUE_URL=redis://localhost:6379/0
Restart=on-failure

[Install]
WantedBy=multi-user.target
EOF
