#!/bin/bash
set -e
python3 -m json.tool --indent 2 /app/maps/points.json > /root/points_indented.json
