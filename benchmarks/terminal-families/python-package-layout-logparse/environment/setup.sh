#!/bin/bash
set -e
cd /app
mkdir -p /home/dev/code
echo 'Python projects live here.' > /home/dev/code/README.txt
