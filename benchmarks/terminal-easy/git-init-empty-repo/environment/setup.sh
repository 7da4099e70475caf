#!/bin/bash
set -e
mkdir -p /app/project
printf 'print("hi")\n' > /app/project/main.py
