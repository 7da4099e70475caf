#!/bin/bash
set -e
gzip -k /app/report.txt
