#!/bin/bash
set -e
tail -n +2 /var/log/nginx/access.csv | cut -d, -f2 | sort -u | wc -l > /var/log/nginx/unique_ips.txt
