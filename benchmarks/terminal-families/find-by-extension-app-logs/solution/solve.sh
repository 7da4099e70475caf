#!/bin/bash
set -e
find /srv/app -type f -name '*.log' | sort > /tmp/log_files.txt
