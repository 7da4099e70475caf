#!/bin/bash
set -e
find /opt/tools -type f -exec chmod 755 {} +
