#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/config/services.json)"
cat > /app/config/services.json <<'__END_OF_FILE__'
{
  "api": {"host": "10.0.0.5", "port": 8000},
  "cache": {"nodes": ["10.0.0.5:6379", "10.0.0.6:6379", "10.0.0.5:6380"]},
  "dns": "10.0.0.1",
  "health": "http://10.0.0.5:8000/health http://10.0.0.5:8001/health"
}
__END_OF_FILE__
