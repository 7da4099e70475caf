#!/bin/bash
set -e
cat > /opt/metrics/metrics-agent.service <<'EOF'
[Unit]
Description=Metrics agent
After=network.target

[Service]
ExecStart=/opt/metrics/agent.sh
User=metrics
WorkingDirectory=/opt/metrics
Environment=LOG_LEVEL=info
Restart=always

[Install]
WantedBy=multi-user.target
EOF
