#!/bin/bash
set -e
sed -i 's/staging.example.com/shop.example.com/g' /etc/nginx/sites-available/shop.conf
