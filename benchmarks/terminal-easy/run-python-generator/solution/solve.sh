#!/bin/bash
set -e
python3 /app/gen.py
