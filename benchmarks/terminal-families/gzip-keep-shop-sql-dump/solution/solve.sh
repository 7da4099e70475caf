#!/bin/bash
set -e
gzip -k /srv/backups/shop-2024-06-01.sql
