#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/stack/docker-compose.yml)"
cat > /srv/stack/docker-compose.yml <<'__END_OF_FILE__'
services:
  web:
    image: registry.local/shop/web:1.4
    environment:
      - CDN_ORIGIN=registry.local
      - MIRRORS=registry.local,registry.local:5001
  worker:
    image: registry.local/shop/worker:1.4
    command: ["pull", "--from", "registry.local", "--to", "registry.local:5001"]
__END_OF_FILE__
