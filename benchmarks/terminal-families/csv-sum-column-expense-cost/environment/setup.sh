#!/bin/bash
set -e
cd /app
mkdir -p /app/finance
cat > /app/finance/expenses.csv <<'EOF'
category,description,cost,approved_by
office,paper,142.52,Elif
office,taxi,109.76,Hana
meals,taxi,48.05,Farah
meals,taxi,67.63,Dmitri
software,paper,43.71,Dmitri
office,lunch,174.68,Dmitri
travel,paper,171.02,Hana
travel,lunch,62.09,Goran
software,taxi,113.28,Ana
meals,lunch,84.59,Ivo
meals,license,90.24,Hana
office,paper,100.80,Ben
office,taxi,148.68,Farah
meals,paper,14.69,Hana
travel,paper,69.72,Ivo
travel,license,17.40,Kofi
travel,license,123.84,Kofi
meals,license,57.50,Lena
office,lunch,74.69,Ana
meals,taxi,157.84,Jun
meals,paper,114.18,Dmitri
travel,license,136.14,Kofi
office,license,127.78,Farah
office,paper,117.12,Kofi
EOF
