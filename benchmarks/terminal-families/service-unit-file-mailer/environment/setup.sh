#!/bin/bash
set -e
cd /app
mkdir -p /root/units /opt/mailer
mkdir -p /opt/mailer
printf '#!/bin/sh\nexec sleep 3600\n' > /opt/mailer/mailer
chmod 755 /opt/mailer/mailer
