#!/bin/bash
set -e
sed -i 's/^port *=.*/port = 9090/' /etc/myapp/app.ini
