#!/bin/bash
set -e
tail -n +2 /srv/api/requests.csv | cut -d, -f4 | sort -u | wc -l > /srv/api/status_kinds.txt
