#!/bin/bash
set -e
mkdir -p /data/sales/q3
tar -xzf /data/incoming/sales-q3.tar.gz -C /data/sales/q3
