#!/bin/bash
set -e
awk -F'|' '$3 == "delete"' /var/log/audit/actions.log | wc -l > /var/log/audit/delete_count.txt
