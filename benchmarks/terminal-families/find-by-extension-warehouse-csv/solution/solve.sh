#!/bin/bash
set -e
find /data/warehouse -type f -name '*.csv' | sort > /data/csv_inventory.txt
