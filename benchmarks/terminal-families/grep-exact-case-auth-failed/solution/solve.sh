#!/bin/bash
set -e
grep -F 'Failed' /var/log/auth.log > /root/failed_logins.txt
