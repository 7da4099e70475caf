#!/bin/bash
set -e
tail -n +2 /root/shipments.csv | cut -d, -f3 | sort -u | wc -l > /root/destinations.txt
