#!/bin/bash
set -e
find /etc/myapp/secrets -type f -exec chmod 600 {} +
