#!/bin/bash
set -e
grep -F 'ERROR' /app/logs/app.log > /app/errors.txt
