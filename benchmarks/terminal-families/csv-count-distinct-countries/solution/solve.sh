#!/bin/bash
set -e
tail -n +2 /data/users.csv | cut -d, -f4 | sort -u | wc -l > /data/country_count.txt
