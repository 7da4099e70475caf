#!/bin/bash
set -e
tail -n +2 /home/analyst/sales_2024.csv | cut -d, -f3 | sort -u | wc -l > /home/analyst/product_count.txt
