#!/bin/bash
set -e
cd /app
mkdir -p /data/pkg
echo 'Python projects live here.' > /data/pkg/README.txt
