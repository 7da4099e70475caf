#!/bin/bash
set -e
cd /app
mkdir -p /app/pkgs
echo 'Python projects live here.' > /app/pkgs/README.txt
