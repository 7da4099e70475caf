#!/bin/bash
set -e
python3 -m json.tool --indent 2 /home/dev/app/package.min.json > /home/dev/app/package.json
