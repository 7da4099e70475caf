#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /srv/db/seed.sql)"
cat > /srv/db/seed.sql <<'__END_OF_FILE__'
CREATE SCHEMA IF NOT EXISTS legacy_shop;
SET search_path TO legacy_shop;
INSERT INTO legacy_shop.customers (id, name) SELECT id, name FROM legacy_shop.users;
INSERT INTO legacy_shop.orders SELECT * FROM legacy_shop.orders_2023 UNION ALL SELECT * FROM legacy_shop.orders_2024;
GRANT USAGE ON SCHEMA legacy_shop TO reporting;
__END_OF_FILE__
