#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/dev/.config/syncer/syncer.ini)"
cat > /home/dev/.config/syncer/syncer.ini <<'__END_OF_FILE__'
[account]
user = dev
remote = https://sync.example.com

[sync]
# interval = 600
interval = 300
retry_interval = 30
max_interval = 3600
paths = ~/Documents ~/Projects
__END_OF_FILE__
