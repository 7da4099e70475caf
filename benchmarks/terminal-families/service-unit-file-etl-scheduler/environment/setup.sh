#!/bin/bash
set -e
cd /app
mkdir -p /data/services /data/etl
