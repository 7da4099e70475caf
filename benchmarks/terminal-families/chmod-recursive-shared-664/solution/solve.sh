#!/bin/bash
set -e
find /home/team/shared -type f -exec chmod 664 {} +
