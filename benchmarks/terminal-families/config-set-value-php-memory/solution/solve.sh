#!/bin/bash
set -e
sed -i 's/^memory_limit *=.*/memory_limit = 512M/' /etc/php/conf.d/99-app.ini
