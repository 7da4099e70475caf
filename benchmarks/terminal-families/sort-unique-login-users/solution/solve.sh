#!/bin/bash
set -e
sort -u /var/log/logins.txt > /app/users.txt
