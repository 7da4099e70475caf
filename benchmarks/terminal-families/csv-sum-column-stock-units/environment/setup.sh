#!/bin/bash
set -e
cd /app
mkdir -p /opt/catalog
cat > /opt/catalog/stock.csv <<'EOF'
sku,name,warehouse,units,reorder_level
SKU-300,"Cable, USB-C 1m",berlin,42,10
SKU-301,Keyboard,berlin,39,20
SKU-302,"Mouse, wireless",lyon,368,50
SKU-303,Webcam,berlin,303,10
SKU-304,"Charger, 65W",lyon,116,10
SKU-305,Keyboard,lyon,152,20
SKU-306,"Cable, USB-C 1m",lyon,124,10
SKU-307,"Cable, USB-C 1m",berlin,158,20
SKU-308,Monitor stand,lyon,388,20
SKU-309,Webcam,berlin,226,20
SKU-310,"Mouse, wireless",berlin,299,10
SKU-311,Monitor stand,lyon,73,50
SKU-312,Monitor stand,berlin,221,20
SKU-313,Monitor stand,berlin,47,50
SKU-314,Keyboard,lyon,337,50
SKU-315,"Mouse, wireless",lyon,152,50
SKU-316,Keyboard,berlin,236,20
SKU-317,Webcam,berlin,41,20
SKU-318,"Mouse, wireless",lyon,93,20
SKU-319,Webcam,lyon,198,50
SKU-320,"Charger, 65W",lyon,305,50
SKU-321,Webcam,berlin,6,20
SKU-322,Keyboard,berlin,388,50
SKU-323,"Mouse, wireless",berlin,330,20
SKU-324,Keyboard,lyon,218,50
SKU-325,"Mouse, wireless",lyon,71,20
SKU-326,Webcam,berlin,38,20
SKU-327,"Charger, 65W",berlin,218,20
EOF
