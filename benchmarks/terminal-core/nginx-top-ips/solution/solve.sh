#!/bin/bash
# The status is the first field after the quoted request, so split on '"' instead of spaces.
awk -F'"' '{ split($3, a, " "); if (a[1] ~ /^5[0-9][0-9]$/) { split($1, b, " "); n[b[1]]++ } }
     END { for (ip in n) print n[ip], ip }' /app/logs/access.log \
  | LC_ALL=C sort -k1,1nr -k2,2 | head -n 5 > /app/top_error_ips.txt
