#!/bin/bash
set -e
sed -n '2,11p' /data/sales.csv > /data/first_rows.csv
