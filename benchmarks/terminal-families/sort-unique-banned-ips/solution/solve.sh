#!/bin/bash
set -e
sort -u /etc/fail2ban/banned_raw.txt > /root/banned.txt
