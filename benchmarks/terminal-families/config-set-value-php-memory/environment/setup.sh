#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /etc/php/conf.d/99-app.ini)"
cat > /etc/php/conf.d/99-app.ini <<'__END_OF_FILE__'
; local overrides
;memory_limit = 64M
memory_limit = 128M
worker.memory_limit = 128M
upload_max_filesize = 20M
post_max_size = 25M
max_execution_time = 60
__END_OF_FILE__
