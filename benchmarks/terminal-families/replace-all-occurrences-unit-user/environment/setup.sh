#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /etc/systemd/system/reports.service)"
cat > /etc/systemd/system/reports.service <<'__END_OF_FILE__'
[Unit]
Description=Nightly reports for olduser

[Service]
User=olduser
Group=olduser
Environment=HOME=/home/olduser REPORT_OWNER=olduser
ExecStart=/usr/local/bin/make-reports --owner olduser --notify olduser
WorkingDirectory=/home/olduser

[Install]
WantedBy=multi-user.target
__END_OF_FILE__
