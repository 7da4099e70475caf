#!/bin/bash
set -e
awk '$3 == "WARN"' /srv/app/logs/service.log | wc -l > /srv/app/warn_count.txt
