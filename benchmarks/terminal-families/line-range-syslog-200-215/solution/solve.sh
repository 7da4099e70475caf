#!/bin/bash
set -e
sed -n '200,215p' /var/log/syslog.1 > /tmp/syslog_window.txt
