#!/bin/bash
set -e
cd /app
mkdir -p /app/maps /root
cat > /app/maps/points.json <<'EOF'
{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Harbor"},"geometry":{"type":"Point","coordinates":[10.75,59.91]}},{"type":"Feature","properties":{"name":"Station"},"geometry":{"type":"Point","coordinates":[10.76,59.9]}}]}
EOF
