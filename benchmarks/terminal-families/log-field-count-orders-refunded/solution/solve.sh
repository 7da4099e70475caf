#!/bin/bash
set -e
awk -F',' '$4 == "refunded"' /data/shop/orders.csv | wc -l > /data/shop/refunds.txt
