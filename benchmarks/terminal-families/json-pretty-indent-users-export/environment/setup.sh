#!/bin/bash
set -e
cd /app
mkdir -p /var/exports
cat > /var/exports/users.min.json <<'EOF'
[{"username":"akim","uid":1001,"groups":["dev","docker"],"active":true},{"username":"bfox","uid":1002,"groups":["ops"],"active":false},{"username":"cruiz","uid":1003,"groups":["dev","ops","audit"],"active":true}]
EOF
