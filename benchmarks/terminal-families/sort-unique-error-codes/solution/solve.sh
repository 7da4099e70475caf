#!/bin/bash
set -e
sort -u /var/log/app/codes.txt > /tmp/codes.txt
