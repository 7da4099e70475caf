#!/bin/bash
set -e
cd /app
mkdir -p /app
cat > /app/users.csv <<'EOF'
name,age,city
Ada,36,London
Alan,41,Manchester
Grace,85,New York
Linus,54,Portland
EOF
