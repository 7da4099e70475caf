#!/bin/bash
set -e
gzip -k /var/log/nginx/access.log.1
