#!/bin/bash
set -e
grep -v '^[[:space:]]*$' /data/raw/readings.csv > /data/readings.csv
