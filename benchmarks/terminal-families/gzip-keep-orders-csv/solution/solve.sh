#!/bin/bash
set -e
gzip -k /data/exports/orders-2024-05.csv
