#!/bin/bash
set -e
cd /app
mkdir -p /opt/geo
cat > /opt/geo/cities.csv <<'EOF'
city,country,population,area_km2
Lisbon,Portugal,545000,100.05
"Washington, D.C.",United States,689545,177
Oslo,Norway,709000,454
Canberra,Australia,456692,814.2
EOF
