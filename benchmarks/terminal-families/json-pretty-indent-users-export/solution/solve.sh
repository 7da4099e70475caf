#!/bin/bash
set -e
python3 -m json.tool --indent 2 /var/exports/users.min.json > /var/exports/users.json
