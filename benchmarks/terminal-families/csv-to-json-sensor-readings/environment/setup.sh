#!/bin/bash
set -e
cd /app
mkdir -p /data/iot
cat > /data/iot/readings.csv <<'EOF'
sensor,timestamp,temperature,humidity
temp-1,2024-01-05T06:00:00Z,-3.5,81
temp-2,2024-01-05T06:00:00Z,-1.25,77
temp-1,2024-01-05T07:00:00Z,-2.0,79
temp-3,2024-01-05T07:00:00Z,0.5,90
temp-2,2024-01-05T08:00:00Z,1.75,70
EOF
