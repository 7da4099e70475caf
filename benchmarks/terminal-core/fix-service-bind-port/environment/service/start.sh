#!/bin/bash
# Starts the inventory status service in the foreground.
cd /app/service
exec python server.py --config conf/config.json
