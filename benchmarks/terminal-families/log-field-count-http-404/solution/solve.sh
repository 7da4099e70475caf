#!/bin/bash
set -e
awk '$9 == "404"' /var/log/nginx/access.log | wc -l > /root/not_found.txt
