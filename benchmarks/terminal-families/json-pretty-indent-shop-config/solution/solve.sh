#!/bin/bash
set -e
python3 -m json.tool --indent 2 /app/compact.json > /app/pretty.json
