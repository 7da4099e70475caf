#!/bin/bash
set -e
printf 'name=web\nport=8080\n' > /app/app.conf
