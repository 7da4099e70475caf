#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /var/log/logins.txt)"
cat > /var/log/logins.txt <<'__END_OF_FILE__'
deploy
bruno
fatima
root
erik
gustav
fatima
bruno
deploy
root
bruno
erik
anna
carla
root
anna
fatima
gustav
bruno
root
fatima
__END_OF_FILE__
mkdir -p "$(dirname /app/users.txt)"
