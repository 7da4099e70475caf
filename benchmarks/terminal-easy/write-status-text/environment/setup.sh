#!/bin/bash
set -e
printf 'Files for this task live in /app.\n' > /app/README.txt
