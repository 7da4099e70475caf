#!/bin/bash
set -e
cd /app
mkdir -p /home/dev /home/dev/project
cat > /home/dev/project/package.json <<'EOF'
{
  "name": "report-builder",
  "version": "0.9.0",
  "author": {
    "name": "Priya Raman",
    "email": "priya.raman@example.org"
  },
  "license": "MIT",
  "scripts": {
    "build": "make all",
    "test": "make check"
  }
}
EOF
