#!/bin/bash
set -e
wc -l < /var/log/app/syslog.1 > /root/syslog_lines
