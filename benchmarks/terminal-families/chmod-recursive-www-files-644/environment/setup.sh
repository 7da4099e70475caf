#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/var/www/site'
files = {'index.html': 'index.html: sample content\n', 'css/main.css': 'css/main.css: sample content\n', 'img/logo.png': 'img/logo.png: sample content\n', 'img/icons/home.svg': 'img/icons/home.svg: sample content\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
chmod 600 /var/www/site/index.html
chmod 640 /var/www/site/css/main.css
chmod 666 /var/www/site/img/logo.png
chmod 600 /var/www/site/img/icons/home.svg
mkdir -p /var/www/site/img/icons
chmod 711 /var/www/site/img/icons
mkdir -p /var/www/site/css
chmod 711 /var/www/site/css
mkdir -p /var/www/site/img
chmod 750 /var/www/site/img
mkdir -p /var/www/site
chmod 755 /var/www/site
