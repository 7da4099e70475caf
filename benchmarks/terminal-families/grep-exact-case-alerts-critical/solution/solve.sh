#!/bin/bash
set -e
grep -F 'CRITICAL' /data/monitoring/alerts.csv > /data/monitoring/critical.csv
