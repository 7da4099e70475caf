#!/bin/bash
set -e
sed -i 's/10.0.0.5/10.20.0.7/g' /app/config/services.json
