#!/bin/bash
set -e
cd /app
mkdir -p /app/library
cat > /app/library/books.csv <<'EOF'
title,author,year,pages
Dune,Frank Herbert,1965,412
"Gödel, Escher, Bach",Douglas Hofstadter,1979,777
Snow Crash,Neal Stephenson,1992,480
Kindred,Octavia E. Butler,1979,264
EOF
