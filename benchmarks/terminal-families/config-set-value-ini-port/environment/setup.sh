#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /etc/myapp/app.ini)"
cat > /etc/myapp/app.ini <<'__END_OF_FILE__'
; myapp configuration
[server]
host = 0.0.0.0
# port = 80
port = 8080
admin_port = 8081
workers = 4

[logging]
level = info
file = /var/log/myapp/app.log
__END_OF_FILE__
