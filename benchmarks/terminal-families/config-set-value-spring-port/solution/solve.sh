#!/bin/bash
set -e
sed -i 's/^server\.port *=.*/server.port=8443/' /opt/shop/conf/application.properties
