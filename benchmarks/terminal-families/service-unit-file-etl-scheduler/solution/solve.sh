#!/bin/bash
set -e
cat > /data/services/etl-scheduler.service <<'EOF'
[Unit]
Description=ETL scheduler
After=network.target

[Service]
ExecStart=/usr/bin/python3 -m etl.scheduler
User=etl
WorkingDirectory=/data/etl
Environment=PYTHONUNBUFFERED=1
Restart=on-failure

[Install]
WantedBy=multi-user.target
EOF
