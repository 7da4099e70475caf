#!/bin/bash
set -e
find /srv/db -type f -name '*.sql' | sort > /tmp/sql_files.txt
