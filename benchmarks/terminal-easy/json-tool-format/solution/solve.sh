#!/bin/bash
set -e
python3 -m json.tool /app/api.json /app/api.pretty.json
