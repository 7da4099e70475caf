#!/bin/bash
set -e
sed -i 's/registry.local/registry.corp.net/g' /srv/stack/docker-compose.yml
