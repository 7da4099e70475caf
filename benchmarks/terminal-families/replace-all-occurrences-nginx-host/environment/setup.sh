#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /etc/nginx/sites-available/shop.conf)"
cat > /etc/nginx/sites-available/shop.conf <<'__END_OF_FILE__'
server {
    listen 80;
    server_name staging.example.com www.staging.example.com;
    return 301 https://staging.example.com$request_uri;
}

server {
    listen 443 ssl;
    server_name staging.example.com www.staging.example.com;
    ssl_certificate     /etc/ssl/staging.example.com/fullchain.pem;
    ssl_certificate_key /etc/ssl/staging.example.com/privkey.pem;
    root /var/www/shop;
}
__END_OF_FILE__
