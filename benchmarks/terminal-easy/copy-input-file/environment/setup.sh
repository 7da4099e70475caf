#!/bin/bash
set -e
mkdir -p /app/data
printf 'alpha\nbeta\ngamma\n' > /app/data/input.txt
