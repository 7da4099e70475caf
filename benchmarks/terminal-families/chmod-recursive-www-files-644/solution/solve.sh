#!/bin/bash
set -e
find /var/www/site -type f -exec chmod 644 {} +
