#!/bin/bash
set -e
cd /app
mkdir -p /data
cat > /data/inventory.json <<'EOF'
{"warehouse":"north","updated":"2024-05-02","items":[{"sku":"KB-200","qty":14,"bin":"A3"},{"sku":"MS-110","qty":0,"bin":"A4"},{"sku":"CB-USB","qty":250,"bin":"C1"}]}
EOF
