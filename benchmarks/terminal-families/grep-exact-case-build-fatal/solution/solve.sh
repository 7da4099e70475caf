#!/bin/bash
set -e
grep -F 'FATAL' /app/build/build.log > /app/build/fatal.txt
