#!/bin/bash
set -e
echo 'debug=true' >> /app/app.conf
