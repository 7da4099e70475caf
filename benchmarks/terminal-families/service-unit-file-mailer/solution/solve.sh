#!/bin/bash
set -e
cat > /root/units/mailer.service <<'EOF'
[Unit]
Description=Outgoing mail relay
After=network.target

[Service]
ExecStart=/opt/mailer/mailer --config /etc/mailer.conf
User=mail
WorkingDirectory=/opt/mailer
Environment=SMTP_HOST=smtp.internal
Restart=always

[Install]
WantedBy=multi-user.target
EOF
