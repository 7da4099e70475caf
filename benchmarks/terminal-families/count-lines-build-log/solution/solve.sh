#!/bin/bash
set -e
wc -l < /app/build/output.log > /app/build/lines.txt
