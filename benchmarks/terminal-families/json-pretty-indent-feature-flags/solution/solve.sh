#!/bin/bash
set -e
python3 -m json.tool --indent 2 /etc/flags/flags.json > /etc/flags/flags.formatted.json
