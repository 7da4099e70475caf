#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/.env)"
cat > /app/.env <<'__END_OF_FILE__'
# Application environment
APP_ENV=production
# DB_HOST=127.0.0.1
DB_HOST=localhost
DB_HOST_REPLICA=localhost
DB_PORT=5432
DB_NAME=shop
SECRET_KEY=change-me-7f3a
__END_OF_FILE__
