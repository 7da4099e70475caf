#!/bin/bash
set -e
printf 'old entries\n' > /app/old.log
printf 'current entries\n' > /app/current.log
