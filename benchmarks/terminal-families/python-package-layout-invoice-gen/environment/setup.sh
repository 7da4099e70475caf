#!/bin/bash
set -e
cd /app
mkdir -p /srv/projects
echo 'Python projects live here.' > /srv/projects/README.txt
