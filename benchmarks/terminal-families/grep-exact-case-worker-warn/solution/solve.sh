#!/bin/bash
set -e
grep -F 'WARN' /var/log/worker/jobs.log > /root/warn_lines.txt
