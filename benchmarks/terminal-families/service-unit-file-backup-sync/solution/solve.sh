#!/bin/bash
set -e
cat > /app/systemd/backup-sync.service <<'EOF'
[Unit]
Description=Backup sync
After=network.target

[Service]
ExecStart=/usr/local/bin/backup-sync --target /mnt/backup
User=backup
WorkingDirectory=/var/lib/backup-sync
Environment=TZ=UTC
Restart=always

[Install]
WantedBy=multi-user.target
EOF
