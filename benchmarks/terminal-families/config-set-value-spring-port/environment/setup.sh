#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /opt/shop/conf/application.properties)"
cat > /opt/shop/conf/application.properties <<'__END_OF_FILE__'
# Spring Boot settings
spring.application.name=shop
#server.port=80
server.port=8080
management.server.port=8081
spring.datasource.url=jdbc:postgresql://db:5432/shop
spring.datasource.username=shop
logging.level.root=INFO
__END_OF_FILE__
