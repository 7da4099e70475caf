#!/bin/bash
set -e
cd /app
mkdir -p /srv/api
cat > /srv/api/response.min.json <<'EOF'
{"status":"ok","page":1,"results":[{"id":17,"title":"Widget","tags":["blue","small"]},{"id":23,"title":"Gadget","tags":["red"]}],"next":"/items?page=2"}
EOF
