#!/bin/bash
set -e
cd /app
mkdir -p /opt/build
echo 'Python projects live here.' > /opt/build/README.txt
