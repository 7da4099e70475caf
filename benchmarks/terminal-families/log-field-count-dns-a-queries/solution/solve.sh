#!/bin/bash
set -e
awk '$4 == "A"' /var/log/dns/queries.log | wc -l > /var/log/dns/a_count.txt
