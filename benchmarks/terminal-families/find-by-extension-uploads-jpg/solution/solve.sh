#!/bin/bash
set -e
find /var/www/uploads -type f -name '*.jpg' | sort > /root/jpg_paths.txt
