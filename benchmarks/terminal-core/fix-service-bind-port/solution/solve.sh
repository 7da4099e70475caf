#!/bin/bash
cd /app/service
cat > config.json <<'J'
{
  "name": "inventory",
  "host": "127.0.0.1",
  "port": 9090
}
J
cat > start.sh <<'S'
#!/bin/bash
# Starts the inventory status service in the foreground.
cd /app/service
exec python3 server.py --config config.json
S
chmod +x start.sh
