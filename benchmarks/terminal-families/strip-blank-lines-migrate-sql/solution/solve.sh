#!/bin/bash
set -e
grep -v '^[[:space:]]*$' /srv/db/migrate.sql > /srv/db/migrate_compact.sql
