#!/bin/bash
set -e
wc -l < /data/users.csv > /data/count.txt
