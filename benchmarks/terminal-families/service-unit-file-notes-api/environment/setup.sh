#!/bin/bash
set -e
cd /app
mkdir -p /home/dev/units /home/dev/notes-api
mkdir -p /home/dev/notes-api
printf 'setInterval(() => {}, 60000);\n' > /home/dev/notes-api/index.js
chmod 755 /home/dev/notes-api/index.js
