#!/bin/bash
set -e
cd /app
mkdir -p /opt/app
cat > /opt/app/features.json <<'EOF'
{
  "app": "notes",
  "features": {
    "dark_mode": false,
    "sync": true,
    "export_pdf": false
  },
  "max_notes": 500
}
EOF
