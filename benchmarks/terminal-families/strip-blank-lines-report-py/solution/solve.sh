#!/bin/bash
set -e
grep -v '^[[:space:]]*$' /app/tools/report.py > /app/tools/report_compact.py
