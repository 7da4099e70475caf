#!/bin/bash
set -e
sed -i 's/^max_connections *=.*/max_connections = 250/' /etc/pgtune/custom.conf
