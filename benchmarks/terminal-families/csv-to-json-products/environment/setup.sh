#!/bin/bash
set -e
cd /app
mkdir -p /srv/catalog
cat > /srv/catalog/products.csv <<'EOF'
sku,name,price,stock
KB-200,Mechanical keyboard,89.90,14
MS-110,Wireless mouse,24.50,0
CB-USB,USB cable,7.99,250
MN-270,27-inch monitor,249,3
EOF
