#!/bin/bash
set -e
tail -n +2 /opt/fleet/trips.csv | cut -d, -f1 | sort -u | wc -l > /opt/fleet/vehicles.txt
