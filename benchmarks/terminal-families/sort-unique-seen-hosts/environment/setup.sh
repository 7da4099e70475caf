#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/inventory/hosts_seen.txt)"
cat > /srv/inventory/hosts_seen.txt <<'__END_OF_FILE__'
proxy1
db2
proxy1
db1
web1
web2
db2
cache1
web2
mail1
web2
web1
db1
web1
web2
db1
db2
mail1
web1
__END_OF_FILE__
mkdir -p "$(dirname /srv/inventory/hosts_unique.txt)"
