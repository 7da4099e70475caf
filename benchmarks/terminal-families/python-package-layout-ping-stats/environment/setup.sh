#!/bin/bash
set -e
cd /app
mkdir -p /root/work
echo 'Python projects live here.' > /root/work/README.txt
