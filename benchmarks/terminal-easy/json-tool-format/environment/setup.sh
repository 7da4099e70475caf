#!/bin/bash
set -e
printf '{"name": "inventory", "version": 3, "endpoints": ["/items", "/orders"]}\n' > /app/api.json
