#!/bin/bash
set -e
gzip -k /app/data/catalog.json
