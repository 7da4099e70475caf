#!/bin/bash
set -e
python3 -m json.tool --indent 2 /srv/api/response.min.json > /srv/api/response.json
