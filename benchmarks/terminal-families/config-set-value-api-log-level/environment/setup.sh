#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/api/config.env)"
cat > /srv/api/config.env <<'__END_OF_FILE__'
PORT=3000
LOG_LEVEL=info
SQL_LOG_LEVEL=info
# LOG_LEVEL=warn
CACHE_TTL=600
__END_OF_FILE__
