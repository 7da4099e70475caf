#!/bin/bash
cd /app/shop
sha=$(git log -g --format='%H %s' HEAD | awk '$0 ~ / Add partial refund support$/ {print $1; exit}')
git branch feature/refunds "$sha"
