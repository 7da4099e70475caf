#!/bin/bash
set -e
sqlite3 /root/sites.db "UPDATE servers SET region = 'eu-central' WHERE hostname LIKE 'fra-%';"
