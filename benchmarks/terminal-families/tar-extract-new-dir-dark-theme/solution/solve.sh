#!/bin/bash
set -e
mkdir -p /var/www/themes/dark
tar -xzf /var/www/uploads/theme-dark.tar.gz -C /var/www/themes/dark
