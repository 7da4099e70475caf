#!/bin/bash
set -e
cd /app
mkdir -p /root
cat > /root/expenses.csv <<'EOF'
date,category,amount,note
2024-04-02,travel,42.80,taxi to airport
2024-04-03,meals,18.5,lunch
2024-04-07,software,120,editor license
2024-04-09,office,9.99,paper
EOF
