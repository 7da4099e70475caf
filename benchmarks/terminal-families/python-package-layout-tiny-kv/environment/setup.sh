#!/bin/bash
set -e
cd /app
mkdir -p /app/tools
echo 'Python projects live here.' > /app/tools/README.txt
