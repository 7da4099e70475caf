#!/bin/bash
set -e
sed -i 's/^LOG_LEVEL *=.*/LOG_LEVEL=debug/' /srv/api/config.env
