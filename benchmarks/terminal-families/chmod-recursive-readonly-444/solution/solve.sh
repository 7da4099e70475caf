#!/bin/bash
set -e
find /data/archive/2019 -type f -exec chmod 444 {} +
