#!/bin/bash
set -e
cd /app
mkdir -p /app/libs
echo 'Python projects live here.' > /app/libs/README.txt
