#!/bin/bash
set -e
python3 -m json.tool --indent 2 /data/inventory.json > /data/inventory_pretty.json
