#!/bin/bash
set -e
sed -i 's/legacy_shop/shop_v2/g' /srv/db/seed.sql
